/**
 * `GET` and `POST /api/admin/coupons`: the coupons; its `apiDocs` below are its description (docs/api.md, Admin;
 * docs/decisions.md, Toolkits and payments).
 */
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { define } from "@/lib/platform/define.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { CouponCreateSchema, CouponSearchSchema, createCoupon, listCoupons } from "@/lib/coupons/coupons.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { CouponSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "List coupons, newest first",
    description: "`search` matches part of the code, in any case.",
    access: ["admin"],
    query: CouponSearchSchema,
    responses: {
      200: { description: "The coupons", schema: z.strictObject({ coupons: z.array(CouponSchema) }) },
    },
  },
  POST: {
    summary: "Create a coupon",
    description: 'The code is kept in upper case. A code that exists already: 400 "Coupon code already exists"; an ' +
      "`expiresAt` in the past: 400.",
    access: ["admin"],
    body: CouponCreateSchema,
    responses: { 201: { description: "The coupon", schema: z.strictObject({ coupon: CouponSchema }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { search } = validate(CouponSearchSchema, queryOf(ctx.url));
    return Response.json({ coupons: await listCoupons(ctx.state.services.kv, search) });
  },

  async POST(req, ctx) {
    const input = await readBody(req, CouponCreateSchema);
    const audit = adminAudit(ctx.state, { action: "coupon.create", targetKind: "coupon" });
    return Response.json({ coupon: await createCoupon(ctx.state.services.kv, input, audit) }, { status: 201 });
  },
});
