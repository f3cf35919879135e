/**
 * `PATCH /api/admin/users/{id}` `{role}` (admins, by `../_middleware.ts`) → `{user: {id, name,
 * email, role}}`; bad role 400, oneself 403, unknown id 404 (CONTRACT.md §8).
 */
import { assertSignedIn } from "../../../../lib/http/guards.ts";
import { readJson } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { changeUserRole, parseRoleChange } from "../../../../lib/users/admin.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const role = parseRoleChange(await readJson(req));
    const user = await changeUserRole(ctx.state.services.kv, ctx.state.user.id, ctx.params.id, role);
    return Response.json({ user });
  },
};
