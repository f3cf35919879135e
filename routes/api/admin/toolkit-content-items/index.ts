/**
 * `POST /api/admin/toolkit-content-items` `{toolkitId, title, type, content?, cdnVideoUrl?,
 * orderIndex?, isPreview?}` → 201 `{contentItem}` (article HTML sanitized; a video needs
 * `cdnVideoUrl`; unknown toolkit 404). Admins only. CONTRACT.md §6.
 */
import { readBody } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { ContentItemCreateSchema, createContentItem } from "../../../../lib/toolkits/catalog.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const input = await readBody(req, ContentItemCreateSchema);
    return Response.json({ contentItem: await createContentItem(ctx.state.services.kv, input) }, { status: 201 });
  },
};
