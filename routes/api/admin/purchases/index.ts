/**
 * `GET /api/admin/purchases` (admins, by `../_middleware.ts`): `status`, `search`, `limit`, `offset` →
 * `{purchases, pagination, counts}` newest first (docs/api.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminPurchaseQuerySchema, listPurchasesForAdmin } from "@/lib/purchases/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Search purchases",
    description: "Newest first; `search` over the buyer's name and e-mail, the toolkit's title, order and payment ids.",
    access: ["admin"],
    query: adminPurchaseQuerySchema,
    responses: {
      200:
        "`{purchases, pagination, counts}`: each purchase with `user`, `toolkit`, `paymentId`, `extraPayments`, `refund`",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminPurchaseQuerySchema, queryOf(ctx.url));
    return Response.json(await listPurchasesForAdmin(ctx.state.services.kv, query));
  },
});
