/**
 * `GET /api/admin/purchases`: the admin's purchase list; its `apiDocs` below are its description (docs/api.md, Money
 * operations; docs/decisions.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminPurchaseQuerySchema, listPurchasesForAdmin } from "@/lib/purchases/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { AdminPurchaseSchema, PaginationSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  GET: {
    summary: "Search purchases",
    description: "Newest first; `search` matches the buyer's name or e-mail, the toolkit's title, or an order or " +
      "payment id. Each purchase comes with its buyer (`user`, null once deleted), `toolkit`, payments, `refund`, " +
      "prices in paise and receipt, and a paid one with its `refundRequest` and the refund policy's facts (`policy`); " +
      "`refundRequest=open` keeps those whose request waits, `gatewayRefund=partial` those with a payment refunded in " +
      "part at the gateway (`gatewayPartialRefunds`), `owedBack=open` those with a payment owed back (`extraPayments`) " +
      "not refunded yet; `counts` holds the number in each state, in `all`, with a request waiting (`asked`), refunded " +
      "in part (`partlyRefunded`) and owing a payment back (`owed`; the tabs).",
    access: ["admin"],
    query: adminPurchaseQuerySchema,
    responses: {
      200: {
        description: "A page of purchases, and the count of each state and of all",
        schema: z.strictObject({
          purchases: z.array(AdminPurchaseSchema),
          pagination: PaginationSchema,
          counts: z.strictObject({
            pending: z.int(),
            paid: z.int(),
            failed: z.int(),
            refunded: z.int(),
            all: z.int(),
            asked: z.int().describe("With a refund request waiting"),
            partlyRefunded: z.int().describe("With a payment refunded in part at the gateway, not in full since"),
            owed: z.int().describe("With a payment owed back (`extraPayments`) not refunded yet"),
          }),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminPurchaseQuerySchema, queryOf(ctx.url));
    return Response.json(await listPurchasesForAdmin(ctx.state.services.kv, query));
  },
});
