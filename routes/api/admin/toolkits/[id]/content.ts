/** `GET /api/admin/toolkits/{id}/content` → `{contentItems}` by `orderIndex`, bodies included. Admins only. docs/decisions.md, Toolkits and payments. */
import { define } from "@/lib/platform/define.ts";
import { listContentItems, readToolkit } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: { summary: "A toolkit's lessons with their bodies", access: ["admin"], responses: { 200: "`{contentItems}`" } },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    await readToolkit(kv, ctx.params.id, ctx.state.user);
    return Response.json({ contentItems: await listContentItems(kv, ctx.params.id) });
  },
});
