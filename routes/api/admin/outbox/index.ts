/**
 * `GET /api/admin/outbox` (admins, by `../_middleware.ts`): `status`, `search`, `limit`, `offset` →
 * `{mails, counts, pagination}`, newest first, never a mail's body (docs/api.md, Background work).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { listOutbox, outboxQuerySchema } from "@/lib/mail/outbox_admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "List the e-mail outbox",
    access: ["admin"],
    query: outboxQuerySchema,
    responses: {
      200: "`{mails: [{id, to, subject, status, attempts, lastError, createdAt, dueAt, sentAt}], counts, pagination}`",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(outboxQuerySchema, queryOf(ctx.url));
    return Response.json(await listOutbox(ctx.state.services.kv, query));
  },
});
