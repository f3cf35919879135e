/** `PATCH /api/admin/coupons/{id}` (partial) → `{coupon}` and `DELETE` → `{success: true}`. Admins only. CONTRACT.md §6. */
import { readBody } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { CouponUpdateSchema, deleteCoupon, updateCoupon } from "../../../../lib/coupons/coupons.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async PATCH(req, ctx) {
    const patch = await readBody(req, CouponUpdateSchema);
    return Response.json({ coupon: await updateCoupon(ctx.state.services.kv, ctx.params.id, patch) });
  },

  async DELETE(_req, ctx) {
    await deleteCoupon(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
};
