/**
 * `POST /api/admin/outbox/{id}/retry` (admins) → `{mail}`: a failed mail is pending again, due now, and its try starts
 * at once; 404 for an unknown id, 409 for a mail that has not failed or whose content was not kept (it held a
 * single-use link; docs/api.md, Background work; docs/decisions.md, Background work, "Bodies dropped").
 */
import { define } from "@/lib/platform/define.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { outboxRow } from "@/lib/mail/outbox.ts";
import { retryMail } from "@/lib/mail/outbox_admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Retry a failed e-mail",
    access: ["admin"],
    responses: {
      200: "`{mail}`, pending and due now",
      404: '`{error: "Mail not found"}`',
      409: '`{error: "Only a failed mail can be retried"}`, or the mail held a single-use link and its content ' +
        "was not kept (`canRetry` false): it cannot be sent again",
    },
  },
});

export const handler = define.handlers({
  async POST(_req, ctx) {
    const { services } = ctx.state;
    const mail = await retryMail(services.kv, ctx.params.id);
    deliverSoon(services, mail.id);
    return Response.json({ mail: outboxRow(mail) });
  },
});
