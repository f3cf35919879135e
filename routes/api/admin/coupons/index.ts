/**
 * `GET /api/admin/coupons` (`search` over the code) → `{coupons}` and `POST` → 201 `{coupon}`
 * (a duplicate code: 400 "Coupon code already exists"). Admins only. CONTRACT.md §6.
 */
import { queryOf, readBody, validate } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { CouponCreateSchema, CouponSearchSchema, createCoupon, listCoupons } from "../../../../lib/coupons/coupons.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { search } = validate(CouponSearchSchema, queryOf(ctx.url));
    return Response.json({ coupons: await listCoupons(ctx.state.services.kv, search) });
  },

  async POST(req, ctx) {
    const input = await readBody(req, CouponCreateSchema);
    return Response.json({ coupon: await createCoupon(ctx.state.services.kv, input) }, { status: 201 });
  },
};
