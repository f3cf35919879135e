/**
 * `GET /api/internships/{id}` (public; an inactive one only for admins: docs/decisions.md, Internships makes it 404
 * for every other caller, its owner included, who finds it with `mine=true` and on the pages), `PUT`
 * (owner or admin; `isVerified`/`isActive` admin only) and `DELETE` (owner or admin; soft
 * delete). docs/api.md, Internships, docs/decisions.md, Internships.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import {
  deleteInternship,
  getInternship,
  InternshipUpdateSchema,
  updateInternship,
} from "@/lib/internships/internships.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const internship = await getInternship(ctx.state.services.kv, ctx.params.id, ctx.state.user, "api");
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
});
