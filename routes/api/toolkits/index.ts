/**
 * `GET /api/toolkits` (public: active toolkits, newest first) and `POST /api/toolkits` (admin:
 * 201 with the bare created Toolkit, inactive). docs/api.md, Toolkits, docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { assertRole, assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { createToolkit, listActiveToolkits, ToolkitCreateSchema } from "@/lib/toolkits/catalog.ts";

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
