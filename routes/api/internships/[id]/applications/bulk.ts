/**
 * `POST /api/internships/{id}/applications/bulk` (the internship's poster) `{ids, status, message?}` → `{updated}`:
 * moves up to 100 applications of the internship at once, each telling its applicant (docs/api.md, Applications;
 * docs/decisions.md, Applications, "Status changes").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import {
  BulkChangeSchema,
  changeMany,
  LISTING_DELETED,
  LISTING_TAKEN_DOWN,
  MESSAGE_ASKS_TO_PAY,
} from "@/lib/applications/applications.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Moves fall under the per-person limit `pipeline`. */
export const routeOptions: RouteOptions = { personLimit: "pipeline" };

export const apiDocs = describeRoute({
  section: "Applications",
  POST: {
    summary: "Move many applications at once",
    description: "For the internship's poster: 1 to 100 `ids`, each moved as `PATCH /api/applications/{id}` moves " +
      "one. Ids of other internships, unknown ids, your own application and applications that cannot make the move " +
      "are left as they are.",
    access: ["session"],
    body: BulkChangeSchema,
    responses: {
      200: {
        description: "How many moved",
        schema: z.strictObject({ updated: z.int().describe("Applications moved") }),
      },
      400: `A bad field (more than 100 ids, an unknown status); or ${MESSAGE_ASKS_TO_PAY} (with \`fields\`: ` +
        "`message`; nothing moved)",
      403: `${LISTING_TAKEN_DOWN} (anyone but an admin, once an admin rejected the listing); ${LISTING_DELETED} ` +
        "(anyone but an admin, once the listing was deleted); nothing moved",
      404: "An unknown internship, or one you do not post",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const body = await readBody(req, BulkChangeSchema);
    const { services } = ctx.state;
    const { updated, mailIds } = await changeMany(services.kv, {
      internshipId: ctx.params.id,
      actor: ctx.state.user,
      change: body,
      appUrl: services.config.appUrl,
    });
    for (const id of mailIds) deliverSoon(services, id);
    return Response.json({ updated });
  },
});
