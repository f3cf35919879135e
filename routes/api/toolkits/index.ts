/**
 * `GET /api/toolkits` (public: active toolkits, newest first) and `POST /api/toolkits` (admin:
 * 201 with the bare created Toolkit, inactive). docs/api.md, Toolkits, docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { assertRole, assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { createToolkit, listActiveToolkits, ToolkitCreateSchema } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ToolkitSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "The active toolkits, newest first",
    responses: { 200: { description: "The toolkits", schema: z.array(ToolkitSchema) } },
  },
  POST: {
    summary: "Create a toolkit (inactive)",
    access: ["admin"],
    body: ToolkitCreateSchema,
    responses: { 201: { description: "The toolkit", schema: ToolkitSchema } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json(await listActiveToolkits(ctx.state.services.kv));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    assertRole(ctx.state.user, "admin");
    const input = await readBody(req, ToolkitCreateSchema);
    return Response.json(await createToolkit(ctx.state.services.kv, ctx.state.user, input), { status: 201 });
  },
});
