/**
 * `GET /api/admin/coupons` (`search` over the code) → `{coupons}` and `POST` → 201 `{coupon}`
 * (a duplicate code: 400 "Coupon code already exists"). Admins only. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { CouponCreateSchema, CouponSearchSchema, createCoupon, listCoupons } from "@/lib/coupons/coupons.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: { summary: "List coupons", access: ["admin"], query: CouponSearchSchema, responses: { 200: "`{coupons}`" } },
  POST: {
    summary: "Create a coupon",
    description: 'A code that exists already: 400 "Coupon code already exists".',
    access: ["admin"],
    body: CouponCreateSchema,
    responses: { 201: "`{coupon}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { search } = validate(CouponSearchSchema, queryOf(ctx.url));
    return Response.json({ coupons: await listCoupons(ctx.state.services.kv, search) });
  },

  async POST(req, ctx) {
    const input = await readBody(req, CouponCreateSchema);
    return Response.json({ coupon: await createCoupon(ctx.state.services.kv, input) }, { status: 201 });
  },
});
