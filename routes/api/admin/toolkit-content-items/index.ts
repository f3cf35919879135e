/**
 * `POST /api/admin/toolkit-content-items`: adds a lesson to a toolkit; its `apiDocs` below are its description
 * (docs/api.md, Toolkits, "Lessons"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { ContentItemCreateSchema, createContentItem, withOwnFilePaths } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ARTICLE_MAX } from "@/lib/toolkits/limits.ts";
import { z } from "zod";
import { ContentItemSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  POST: {
    summary: "Add a lesson to a toolkit",
    description: `Article HTML (\`content\`) is at most ${ARTICLE_MAX} characters and is sanitized on save; a ` +
      "lesson that would then not fit one KV value is 400 at `content`. A video needs `cdnVideoUrl` (400)." +
      " Without `orderIndex` the lesson goes last.",
    access: ["admin"],
    body: ContentItemCreateSchema,
    responses: {
      201: { description: "The lesson", schema: z.strictObject({ contentItem: ContentItemSchema }) },
      404: "Toolkit not found",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const input = withOwnFilePaths(await readBody(req, ContentItemCreateSchema), ctx.state.services.config.appUrl);
    const audit = adminAudit(ctx.state, { action: "toolkit_item.create", targetKind: "toolkit_item" });
    return Response.json({ contentItem: await createContentItem(ctx.state.services.kv, input, audit) }, {
      status: 201,
    });
  },
});
