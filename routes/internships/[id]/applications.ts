/**
 * `POST /internships/{id}/applications`: "Close applications" and "Reopen applications" as plain forms, from
 * `/internships/mine` and the listing's page (docs/decisions.md, Open and closed listings, "Closed by the poster"): the
 * field `intent` (`close` or `reopen`) changes the listing as `PUT /api/internships/{id}` with `closed` does (owner or
 * admin), then 303 back to the page the form was on (`from=mine`: `/internships/mine` at the page `offset` it was on,
 * else the listing) with `?applications=closed` or `reopened`, which that page confirms beside the listing
 * (`ApplicationsChangedNotice`). A bad field is 400; anyone else 403; an unknown listing 404.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { validate } from "@/lib/http/json.ts";
import { updateInternship } from "@/lib/internships/writes.ts";
import { APPLICATIONS_CHANGED_PARAM } from "@/lib/browser/internship_format.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `submissions`, as the listing's edit form. */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

/** The form's fields: what to do, and the page it was on. */
const ApplicationsFormSchema = z.object({
  intent: z.enum(["close", "reopen"]),
  from: z.enum(["mine", ""]),
  /** The page of `/internships/mine` the form was on (empty: the first). */
  offset: z.string().regex(/^\d{0,6}$/),
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { intent, from, offset } = validate(
      ApplicationsFormSchema,
      await readFormFields(req, ["intent", "from", "offset"]),
    );
    const { id } = ctx.params;
    await updateInternship(ctx.state.services.kv, { id, actor: ctx.state.user, patch: { closed: intent === "close" } });
    const changed = `${APPLICATIONS_CHANGED_PARAM}=${intent === "close" ? "closed" : "reopened"}`;
    const page = Number(offset) > 0 ? `offset=${Number(offset)}&` : "";
    return seeOther(
      from === "mine"
        ? `/internships/mine?${page}${changed}&id=${id}#internship-${id}`
        : `/internships/${id}?${changed}`,
    );
  },
});
