/**
 * `GET /api/admin/outbox`: the e-mail outbox; its `apiDocs` below are its description (docs/api.md, Background work;
 * docs/decisions.md, Background work, "The outbox").
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { listOutbox, outboxQuerySchema } from "@/lib/mail/outbox_admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { OutboxMailSchema, PaginationSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Background work",
  GET: {
    summary: "List the e-mail outbox",
    description: "Newest first; `status` absent: every status; `search` matches part of the recipient's address. " +
      "Lists, counts and searches the newest 1,000 mails of each status only; `more` says which status holds older " +
      "ones. Never a mail's body.",
    access: ["admin"],
    query: outboxQuerySchema,
    responses: {
      200: {
        description: "A page of mails, newest first, and the count of each status (at most 1,000)",
        schema: z.strictObject({
          mails: z.array(OutboxMailSchema),
          counts: z.strictObject({ pending: z.int(), sent: z.int(), failed: z.int() }),
          more: z.strictObject({ pending: z.boolean(), sent: z.boolean(), failed: z.boolean() }),
          pagination: PaginationSchema,
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(outboxQuerySchema, queryOf(ctx.url));
    return Response.json(await listOutbox(ctx.state.services.kv, query));
  },
});
