/**
 * `PATCH` and `DELETE /api/admin/toolkit-content-items/{id}`: change or delete a lesson; its `apiDocs` below are its
 * description (docs/api.md, Toolkits, "Lessons"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import {
  ContentItemUpdateSchema,
  deleteContentItem,
  updateContentItem,
  withOwnFilePaths,
} from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ARTICLE_MAX } from "@/lib/toolkits/limits.ts";
import { z } from "zod";
import { ContentItemSchema, SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  PATCH: {
    summary: "Change a lesson (the fields given)",
    description: `Article HTML (\`content\`) is at most ${ARTICLE_MAX} characters and is sanitized on save; a ` +
      "lesson that would then not fit one KV value is 400 at `content`. A video needs `cdnVideoUrl` (400).",
    access: ["admin"],
    body: ContentItemUpdateSchema,
    responses: {
      200: { description: "The lesson", schema: z.strictObject({ contentItem: ContentItemSchema }) },
      404: "Content item not found",
    },
  },
  DELETE: {
    summary: "Delete a lesson",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Content item not found" },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = withOwnFilePaths(await readBody(req, ContentItemUpdateSchema), ctx.state.services.config.appUrl);
    const audit = adminAudit(ctx.state, { action: "toolkit_item.update", targetKind: "toolkit_item" });
    const contentItem = await updateContentItem(ctx.state.services.kv, { id: ctx.params.id, patch, audit });
    return Response.json({ contentItem });
  },

  async DELETE(_req, ctx) {
    const audit = adminAudit(ctx.state, { action: "toolkit_item.delete", targetKind: "toolkit_item" });
    await deleteContentItem(ctx.state.services.kv, ctx.params.id, audit);
    return Response.json({ success: true });
  },
});
