/**
 * `PATCH` and `DELETE /api/admin/coupons/{id}`: change or delete a coupon; its `apiDocs` below are its description
 * (docs/api.md, Admin; docs/decisions.md, Toolkits and payments).
 */
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { CouponUpdateSchema, deleteCoupon, updateCoupon } from "@/lib/coupons/coupons.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { CouponSchema, SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  PATCH: {
    summary: "Change a coupon (the fields given)",
    description: "A percentage above 100, or a code another coupon has: 400.",
    access: ["admin"],
    body: CouponUpdateSchema,
    responses: {
      200: { description: "The coupon", schema: z.strictObject({ coupon: CouponSchema }) },
      404: "Coupon not found",
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Delete a coupon",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Coupon not found", 503: BUSY },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, CouponUpdateSchema);
    const audit = adminAudit(ctx.state, { action: "coupon.update", targetKind: "coupon" });
    return Response.json({ coupon: await updateCoupon(ctx.state.services.kv, { id: ctx.params.id, patch, audit }) });
  },

  async DELETE(_req, ctx) {
    const audit = adminAudit(ctx.state, { action: "coupon.delete", targetKind: "coupon" });
    await deleteCoupon(ctx.state.services.kv, ctx.params.id, audit);
    return Response.json({ success: true });
  },
});
