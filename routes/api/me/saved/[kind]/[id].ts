/**
 * `PUT` and `DELETE /api/me/saved/{kind}/{id}`: save a listing or change a saved item, or remove it; its `apiDocs`
 * below are its description (docs/api.md, Student space; docs/decisions.md, Student space).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, count, describeRoute } from "@/lib/openapi/describe.ts";
import { SavedItemSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { isSavedKind, SavedChangeSchema, saveItem, unsaveItem } from "@/lib/saved/saved.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { MAX_SAVED, SAVED_KINDS, TOO_MANY_SAVED } from "@/lib/saved/schema.ts";

/** Writes fall under the per-person limit `saved` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "saved" };

export const apiDocs = describeRoute({
  section: "Student space",
  PUT: {
    summary: "Save a listing, or change a saved item",
    description: `\`{kind}\` is ${SAVED_KINDS.map((kind) => `\`${kind}\``).join(" or ")}. Absent fields keep ` +
      'their value; a new item is `saved` with note `""`. `note` is plain text (`null` clears it). The item\'s ' +
      "`listing` is as the public read answers it, null once deleted or hidden.",
    access: ["session"],
    body: SavedChangeSchema,
    responses: {
      200: { description: "The item", schema: z.strictObject({ item: SavedItemSchema }) },
      400: `A bad field, or ${TOO_MANY_SAVED.toLowerCase()} (the ${count(MAX_SAVED + 1)}st save)`,
      404: "An unknown kind, or a new save of a listing that is unknown, deleted, inactive or unpublished",
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Remove a saved item",
    description: "Also for an item that was not saved.",
    access: ["session"],
    responses: {
      200: { description: "Removed (or was not saved)", schema: SuccessSchema },
      404: "An unknown kind",
      503: BUSY,
    },
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
