/** `PATCH /api/admin/coupons/{id}` (partial) → `{coupon}` and `DELETE` → `{success: true}`. Admins only. docs/decisions.md, Toolkits and payments. */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { CouponUpdateSchema, deleteCoupon, updateCoupon } from "@/lib/coupons/coupons.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  PATCH: { summary: "Change a coupon", access: ["admin"], body: CouponUpdateSchema, responses: { 200: "`{coupon}`" } },
  DELETE: {
    summary: "Delete a coupon",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, CouponUpdateSchema);
    return Response.json({ coupon: await updateCoupon(ctx.state.services.kv, ctx.params.id, patch) });
  },

  async DELETE(_req, ctx) {
    await deleteCoupon(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
});
