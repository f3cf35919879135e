/**
 * `GET`, `PUT` and `DELETE /api/internships/{id}`: one internship; its `apiDocs` below are its description
 * (docs/api.md, Internships, "Who may do what"; docs/decisions.md, Internships).
 */
import { define } from "@/lib/platform/define.ts";
import { auditIfAdmin } from "@/lib/http/admin_audit.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { getInternship, InternshipUpdateSchema } from "@/lib/internships/internships.ts";
import { deleteInternship, updateInternship } from "@/lib/internships/writes.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { InternshipSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

const Answer = z.strictObject({ success: z.literal(true), internship: InternshipSchema });

export const apiDocs = describeRoute({
  section: "Internships",
  GET: {
    summary: "One internship",
    description: "An inactive one is 404 for every caller but admins, its owner included (the owner finds it with " +
      "`mine=true` and on the pages); a deleted one for everybody.",
    access: ["public", "session"],
    responses: { 200: { description: "The internship", schema: Answer }, 404: "Internship not found" },
  },
  PUT: {
    summary: "Change an internship (the fields given)",
    description: "Its owner or an admin; only admins set `isVerified` and `isActive`. A change of what students read " +
      "sets `revisedAt`. Lowering the stipend, bringing the deadline forward or changing the questions tells every " +
      "applicant whose application is still open, within minutes " +
      '(docs/decisions.md, Applications, "Terms changed after applying").',
    access: ["session"],
    body: InternshipUpdateSchema,
    responses: {
      200: { description: "The internship", schema: Answer },
      403: "Neither the owner nor an admin, or `isVerified`/`isActive` from a non-admin",
      404: "Internship not found (or deleted)",
      409: "Students' reports hold it and the change is to what students read, by someone not an admin",
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Delete an internship (soft delete: `deletedAt` is set)",
    description: "Its owner or an admin. Its open reports are resolved as `removed` by `author` (its owner) or " +
      "`admin`, each reporter told.",
    access: ["session"],
    responses: {
      200: { description: "Deleted", schema: SuccessSchema },
      403: "Neither the owner nor an admin",
      404: "Internship not found (or deleted already)",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const internship = await getInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      viewer: ctx.state.user,
      audience: "api",
    });
    return Response.json({ success: true, internship });
  },

  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const patch = await readBody(req, InternshipUpdateSchema);
    const flags = [["isVerified", patch.isVerified], ["isActive", patch.isActive]] as const;
    const summary = flags.filter(([, on]) => on !== undefined).map(([flag, on]) => `${flag}: ${on}`).join(", ");
    const audit = auditIfAdmin(ctx.state, { action: "internship.update", targetKind: "internship", summary });
    const internship = await updateInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      actor: ctx.state.user,
      patch,
      audit,
    });
    return Response.json({ success: true, internship });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    const audit = auditIfAdmin(ctx.state, { action: "internship.delete", targetKind: "internship" });
    await deleteInternship(ctx.state.services.kv, { id: ctx.params.id, actor: ctx.state.user, audit });
    return Response.json({ success: true });
  },
});
