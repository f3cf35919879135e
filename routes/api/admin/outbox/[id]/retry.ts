/**
 * `POST /api/admin/outbox/{id}/retry`: an admin retries a failed e-mail; its `apiDocs` below are its description
 * (docs/api.md, Background work; docs/decisions.md, Background work, "Bodies dropped").
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { outboxRow } from "@/lib/mail/outbox.ts";
import { NOT_FAILED, retryMail } from "@/lib/mail/outbox_admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { OutboxMailSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Background work",
  POST: {
    summary: "Retry a failed e-mail",
    description: "The mail becomes pending and due now; its try starts at once.",
    access: ["admin"],
    responses: {
      200: {
        description: "The mail, pending and due now",
        schema: z.strictObject({ mail: OutboxMailSchema }),
      },
      404: "Mail not found",
      409: `${NOT_FAILED}; or the mail held a single-use link and its content was not kept (\`canRetry\` false): it ` +
        "cannot be sent again",
    },
  },
});

export const handler = define.handlers({
  async POST(_req, ctx) {
    const { services } = ctx.state;
    const audit = adminAudit(ctx.state, { action: "mail.retry", targetKind: "mail" });
    const mail = await retryMail(services.kv, { id: ctx.params.id, audit });
    deliverSoon(services, mail.id);
    return Response.json({ mail: outboxRow(mail) });
  },
});
