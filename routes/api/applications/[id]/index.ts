/**
 * `PATCH /api/applications/{id}` (the internship's poster) `{status, message?}` → `{application}`: moves one
 * application and tells the applicant in the app and by e-mail (docs/api.md, Applications; docs/decisions.md,
 * Applications, "Status changes").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ApplicationSchema } from "@/lib/openapi/applications.ts";
import {
  changeStatus,
  FINAL,
  INVALID_CHANGE,
  LISTING_DELETED,
  LISTING_TAKEN_DOWN,
  MESSAGE_ASKS_TO_PAY,
  NOT_FOUND,
  StatusChangeSchema,
} from "@/lib/applications/applications.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Moves fall under the per-person limit `pipeline`. */
export const routeOptions: RouteOptions = { personLimit: "pipeline" };

export const apiDocs = describeRoute({
  section: "Applications",
  PATCH: {
    summary: "Move an application",
    description:
      "For the internship's poster (never of their own application: 404). Forwards along applied → shortlisted → interview → offer → hired " +
      "(steps may be skipped), or to `rejected` from anything but `hired` and `withdrawn`. `message` (plain text, at " +
      "most 2,000 characters) goes to the applicant with the notification and the e-mail; one that asks them to pay " +
      "(the never-pay rule's phrases) is refused.",
    access: ["session"],
    body: StatusChangeSchema,
    responses: {
      200: { description: "The application, moved", schema: z.strictObject({ application: ApplicationSchema }) },
      400: `${INVALID_CHANGE}; ${FINAL}; ${MESSAGE_ASKS_TO_PAY} (with \`fields\`: \`message\`); or a bad field`,
      403: `${LISTING_TAKEN_DOWN} (anyone but an admin, once an admin rejected the listing); ${LISTING_DELETED} ` +
        "(anyone but an admin, once the listing was deleted)",
      404: `${NOT_FOUND}: unknown, or of an internship you do not post`,
    },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const change = await readBody(req, StatusChangeSchema);
    const { services } = ctx.state;
    const { application, mailId } = await changeStatus(services.kv, {
      id: ctx.params.id,
      actor: ctx.state.user,
      change,
      appUrl: services.config.appUrl,
    });
    if (mailId) deliverSoon(services, mailId);
    return Response.json({ application });
  },
});
