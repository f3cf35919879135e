/**
 * `POST /api/admin/toolkit-content-items` `{toolkitId, title, type, content?, cdnVideoUrl?,
 * orderIndex?, isPreview?}` → 201 `{contentItem}` (article HTML sanitized; a video needs
 * `cdnVideoUrl`; unknown toolkit 404). Admins only. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { ContentItemCreateSchema, createContentItem } from "@/lib/toolkits/catalog.ts";

export const handler = define.handlers({
  async POST(req, ctx) {
    const input = await readBody(req, ContentItemCreateSchema);
    return Response.json({ contentItem: await createContentItem(ctx.state.services.kv, input) }, { status: 201 });
  },
});
