/**
 * `PATCH /api/admin/users/{id}` `{role}` (admins, by `../_middleware.ts`) → `{user: {id, name,
 * email, role}}`; bad role 400, oneself 403, unknown id 404 (docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { changeUserRole, parseRoleChange, roleChangeSchema } from "@/lib/users/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  PATCH: {
    summary: "Change a user's role",
    description: "Not one's own (403).",
    access: ["admin"],
    body: roleChangeSchema,
    responses: { 200: "`{user: {id, name, email, role}}`" },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const role = parseRoleChange(await readJson(req));
    const user = await changeUserRole(ctx.state.services.kv, {
      actorId: ctx.state.user.id,
      targetId: ctx.params.id,
      role,
    });
    return Response.json({ user });
  },
});
