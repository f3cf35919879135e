/**
 * `GET /api/admin/toolkits` (every toolkit, `search` over the title) → `{toolkits}`, and
 * `POST /api/admin/toolkits` → 201 bare Toolkit. Admins only (`_middleware.ts`). docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import {
  createToolkit,
  listToolkitsForAdmin,
  ToolkitCreateSchema,
  ToolkitSearchSchema,
} from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ToolkitSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "Every toolkit, inactive ones included",
    access: ["admin"],
    query: ToolkitSearchSchema,
    responses: { 200: { description: "The toolkits", schema: z.strictObject({ toolkits: z.array(ToolkitSchema) }) } },
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
    const { search } = validate(ToolkitSearchSchema, queryOf(ctx.url));
    return Response.json({ toolkits: await listToolkitsForAdmin(ctx.state.services.kv, search) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, ToolkitCreateSchema);
    return Response.json(await createToolkit(ctx.state.services.kv, ctx.state.user, input), { status: 201 });
  },
});
