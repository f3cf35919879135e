/**
 * `PATCH /api/admin/users/{id}`: an admin changes a user's role; made a user, a poster's open listings nobody else
 * answers close (`runDemotionClose`; docs/decisions.md, Internships, "A poster made a user again"); its
 * `apiDocs` below are its description (docs/api.md, Authentication, "Roles"; docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { changeUserRole, parseRoleChange, roleChangeSchema } from "@/lib/users/admin.ts";
import { runDemotionClose } from "@/lib/internships/demotion_closes.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AdminUserSchema } from "@/lib/openapi/resources.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Admin",
  PATCH: {
    summary: "Change a user's role",
    description: "Never one's own; the last admin cannot be demoted. Made a `user`, the person no longer edits, " +
      "closes or deletes their listings nor reads or moves their applications; their open listings that take " +
      "applications here close, unless linked to a verified organization whose managers answer them " +
      "(`closedListings`: how many closed; sending `user` again closes any a stopped request left open). The role " +
      "changes even when that close is kept busy by other writes (`finishing`): a job finishes it within minutes.",
    access: ["admin"],
    body: roleChangeSchema,
    responses: {
      200: {
        description: "The user with the new role",
        schema: z.strictObject({
          user: AdminUserSchema.pick({ id: true, name: true, email: true, role: true }),
          closedListings: z.int().min(0).describe("How many of their open listings closed (0 unless made `user`)"),
          finishing: z.boolean().describe(
            "True when closing their listings was kept busy by other writes: the role changed, and a job closes them " +
              "within minutes",
          ),
        }),
      },
      400: "Role must be one of the roles (with `fields`)",
      403: "You cannot change your own role (or a write from another origin)",
      404: "User not found",
      409: REFUSALS.promoteSuspended,
    },
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
    const { closed, finishing } = await runDemotionClose(ctx.state.services.kv, user.id);
    return Response.json({ user, closedListings: closed, finishing });
  },
});
