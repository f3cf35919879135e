/**
 * `POST /me/applications/{id}/withdraw`: the tracker's withdraw form without JavaScript (docs/decisions.md,
 * Applications, "Status changes"): withdraws as `POST /api/me/applications/{id}/withdraw` does and answers 303 back to
 * the application in the tracker, on the page the form's `applications-from` names (`trackerReturn`); an application
 * that can no longer be withdrawn is left as it is.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { trackerReturn, withdraw } from "@/lib/applications/applications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const id = ctx.params.id;
    const form = await readFormFields(req, ["applications-from"]);
    try {
      await withdraw(ctx.state.services.kv, { id, userId: ctx.state.user.id });
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
    }
    return seeOther(trackerReturn(id, form["applications-from"]));
  },
});
