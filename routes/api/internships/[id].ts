/**
 * `GET /api/internships/{id}` (public; an inactive one only for admins and its owner), `PUT`
 * (owner or admin; `isVerified`/`isActive` admin only) and `DELETE` (owner or admin; soft
 * delete). Specification "Internships", CONTRACT.md §4.
 */
import { assertSignedIn } from "../../../lib/auth/guards.ts";
import { readBody } from "../../../lib/http/json.ts";
import {
  deleteInternship,
  getInternship,
  InternshipUpdateSchema,
  updateInternship,
} from "../../../lib/internships/internships.ts";
import type { AppState } from "../../../lib/state.ts";
import type { Handlers } from "../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const internship = await getInternship(ctx.state.services.kv, ctx.params.id, ctx.state.user ?? null);
    return Response.json({ success: true, internship });
  },

  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const patch = await readBody(req, InternshipUpdateSchema);
    const internship = await updateInternship(ctx.state.services.kv, ctx.params.id, ctx.state.user, patch);
    return Response.json({ success: true, internship });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    await deleteInternship(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true });
  },
};
