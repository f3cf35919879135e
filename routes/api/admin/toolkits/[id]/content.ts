/**
 * `GET /api/admin/toolkits/{id}/content`: a toolkit's lessons with their bodies; its `apiDocs` below are its
 * description (docs/api.md, Toolkits, "Lessons"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { listContentItems, readToolkit } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { ContentItemSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "A toolkit's lessons with their bodies",
    access: ["admin"],
    responses: {
      200: {
        description: "The lessons by `orderIndex`",
        schema: z.strictObject({ contentItems: z.array(ContentItemSchema) }),
      },
      404: "Toolkit not found",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    await readToolkit(kv, ctx.params.id, ctx.state.user);
    return Response.json({ contentItems: await listContentItems(kv, ctx.params.id) });
  },
});
