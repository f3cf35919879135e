/**
 * `POST /api/admin/ungatekeep/preview`: renders post Markdown for the editor's live preview, so that the browser bundle
 * carries no Markdown or sanitizer code; its `apiDocs` below are its description (docs/api.md, Ungatekeep, "Post
 * states").
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readBody } from "@/lib/http/json.ts";
import { renderMarkdown } from "@/lib/ungatekeep/markdown.ts";
import { TextSchema } from "@/lib/text.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const PreviewSchema = z.object({ content: TextSchema.max(100_000) });

export const apiDocs = describeRoute({
  section: "Admin",
  POST: {
    summary: "Render post Markdown as a post shows it",
    description: "Rendered and sanitized exactly as a post shows it, invisible characters stripped as on save.",
    access: ["admin"],
    body: PreviewSchema,
    responses: { 200: { description: "The sanitized HTML", schema: z.strictObject({ html: z.string() }) } },
  },
});

export const handler = define.handlers({
  async POST(req) {
    const { content } = await readBody(req, PreviewSchema);
    return Response.json({ html: await renderMarkdown(content) });
  },
});
