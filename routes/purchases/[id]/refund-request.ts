/**
 * `POST /purchases/{id}/refund-request`: the "Ask for a refund" form of the receipt and of "My toolkits" without
 * JavaScript (docs/decisions.md, Money operations, "Refund requests"): the field `reason` asked as
 * `POST /api/purchases/{id}/refund-request` does, then 303 back to the page the form was on (`back`: `mine` for
 * "My toolkits", else the receipt).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { validate } from "@/lib/http/json.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { receiptPath } from "@/lib/purchases/purchases.ts";
import { askRefund, RefundRequestBodySchema } from "@/lib/purchases/refund_requests.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `checkout`, as the API's. */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

const FormSchema = RefundRequestBodySchema.extend({ back: z.enum(["mine", "receipt"]).catch("receipt") });

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { reason, back } = validate(FormSchema, await readFormFields(req, ["reason", "back"]));
    const id = ctx.params.id;
    await askRefund(paymentContext(ctx.state.services), {
      purchaseId: id,
      userId: ctx.state.user.id,
      reason: reason ?? null,
    });
    return seeOther(back === "mine" ? `/toolkits/mine#purchase-${encodeURIComponent(id)}` : receiptPath(id));
  },
});
