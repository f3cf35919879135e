/**
 * `POST /api/admin/toolkit-content-items` `{toolkitId, title, type, content?, cdnVideoUrl?,
 * orderIndex?, isPreview?}` → 201 `{contentItem}` (article HTML sanitized; a video needs
 * `cdnVideoUrl`; unknown toolkit 404). Admins only. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { ContentItemCreateSchema, createContentItem } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Add a lesson to a toolkit",
    description: "Article HTML is sanitized; a video needs `cdnVideoUrl`; an unknown toolkit is 404.",
    access: ["admin"],
    body: ContentItemCreateSchema,
    responses: { 201: "`{contentItem}`", 404: "Toolkit not found" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const input = await readBody(req, ContentItemCreateSchema);
    return Response.json({ contentItem: await createContentItem(ctx.state.services.kv, input) }, { status: 201 });
  },
});
