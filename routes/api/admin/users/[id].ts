/**
 * `PATCH /api/admin/users/{id}` `{role}` (admins, by `../_middleware.ts`) → `{user: {id, name,
 * email, role}}`; bad role 400, oneself 403, unknown id 404 (docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { changeUserRole, parseRoleChange } from "@/lib/users/admin.ts";

export const handler = define.handlers({
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const role = parseRoleChange(await readJson(req));
    const user = await changeUserRole(ctx.state.services.kv, ctx.state.user.id, ctx.params.id, role);
    return Response.json({ user });
  },
});
