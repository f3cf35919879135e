/**
 * `PUT /api/me/saved/{kind}/{id}` `{status?, note?}` (session): saves a listing or changes the saved item → `{item}`;
 * `DELETE` removes it → `{success: true}`, also when it was not saved. `{kind}` is `internships` or `opportunities`
 * (else 404). docs/api.md, Student space; docs/decisions.md, Student space.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SavedItemSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { isSavedKind, SavedChangeSchema, saveItem, unsaveItem } from "@/lib/saved/saved.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `saved` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "saved" };

export const apiDocs = describeRoute({
  PUT: {
    summary: "Save a listing, or change a saved item",
    description: "`status`: saved, applied, interviewing, offer or rejected; `note`: at most 500 characters. " +
      "Absent fields keep their value. The 501st save: 400.",
    access: ["session"],
    body: SavedChangeSchema,
    responses: {
      200: { description: "The item", schema: z.strictObject({ item: SavedItemSchema }) },
      400: "Bad status or note, or 500 items saved already",
      404: "Unknown kind, or a listing that is unknown, deleted, inactive or unpublished",
    },
  },
  DELETE: {
    summary: "Remove a saved item",
    access: ["session"],
    responses: { 200: { description: "Removed (or was not saved)", schema: SuccessSchema }, 404: "Unknown kind" },
  },
});

/** The path's kind. @throws NotFoundError for anything but a saved kind. */
function kindOf(value: string) {
  if (!isSavedKind(value)) throw new NotFoundError();
  return value;
}

export const handler = define.handlers({
  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const kind = kindOf(ctx.params.kind);
    const change = await readBody(req, SavedChangeSchema);
    const item = await saveItem(ctx.state.services.kv, { userId: ctx.state.user.id, kind, id: ctx.params.id, change });
    return Response.json({ item });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    const kind = kindOf(ctx.params.kind);
    await unsaveItem(ctx.state.services.kv, { userId: ctx.state.user.id, kind, id: ctx.params.id });
    return Response.json({ success: true });
  },
});
