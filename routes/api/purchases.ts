/**
 * `GET /api/purchases`: the caller's purchases; its `apiDocs` below are its description (docs/api.md, Money
 * operations; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { purchaseHistory } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { PurchaseHistoryItemSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Toolkits",
  GET: {
    summary: "The caller's purchases, newest first",
    description: "Each with `toolkit {id, title}` (null once deleted), `receiptUrl` (`/purchases/{id}/receipt`, null " +
      "without a receipt) and, once refunded, its `refund` (`amount` in paise; `status` `pending` until the gateway " +
      "reports it `processed`); `creditNotes` lists every credit note issued against its tax invoice, one per " +
      "refund (a part refunded at the gateway too), each with its amount in paise and its printable page (`url`).",
    access: ["session"],
    responses: {
      200: {
        description: "The purchases, newest first",
        schema: z.strictObject({ purchases: z.array(PurchaseHistoryItemSchema) }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ purchases: await purchaseHistory(ctx.state.services.kv, ctx.state.user.id) });
  },
});
