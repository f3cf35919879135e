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
