/**
 * `POST /me/applications/{id}/stipend-report`: the tracker's stipend form without JavaScript (docs/decisions.md,
 * Applications, "Stipend reports"): the field `paid` (`yes`, `partly` or `no`) reported as
 * `POST /api/me/applications/{id}/stipend-report` does, then 303 back to the application in the tracker, on the page the
 * form's `applications-from` names (`trackerReturn`).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { validate } from "@/lib/http/json.ts";
import { reportStipend, StipendReportSchema, trackerReturn } from "@/lib/applications/applications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const form = await readFormFields(req, ["paid", "applications-from"]);
    const { paid } = validate(StipendReportSchema, { paid: form.paid });
    const id = ctx.params.id;
    await reportStipend(ctx.state.services.kv, { id, userId: ctx.state.user.id, paid });
    return seeOther(trackerReturn(id, form["applications-from"]));
  },
});
