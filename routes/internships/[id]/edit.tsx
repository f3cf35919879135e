/**
 * `/internships/{id}/edit`: the owner's or an admin's edit form, saving with `PUT /api/internships/{id}` (docs/api.md,
 * Internships, "Who may do what"). Guests are sent to sign in and back; an unknown, deleted or hidden id is 404; anyone
 * else gets a 403 page. The owner of a listing an admin checked reads that an edit of what students read takes the
 * "Checked" tick off (docs/decisions.md, Trust, "Trust filters"); the poster of a listing that takes applications here
 * reads that its applicants are told of a change for the worse or of its title, organization, location or work type
 * (docs/decisions.md, Applications, "Terms changed after applying"); the owner of a listing students' reports hold
 * reads, before typing, that it cannot be changed until an admin decides (docs/decisions.md, Trust, "A reported listing
 * keeps its text").
 *
 * `POST /internships/{id}/edit` is the form without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): the changed fields, checked and saved as `PUT /api/internships/{id}` does (`lib/internships/form.ts`);
 * success is 303 to the listing with `?saved=1` (nothing changed: without it), a refusal renders the page again (400) with what was typed and
 * a sentence beside each field.
 */
import { define } from "@/lib/platform/define.ts";
import { applyValuesOf, formValuesOf } from "@/lib/browser/internship_form.ts";
import { MessagePage } from "@/components/internships/MessagePage.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipForm, { INTERNSHIP_FORM_TEXT, type InternshipFormProps } from "@/islands/InternshipForm.tsx";
import { getInternship, type InternshipView } from "@/lib/internships/internships.ts";
import { canManage, canModerate } from "@/lib/internships/policy.ts";
import { heldByReports } from "@/lib/moderation/moderation.ts";
import { Notice } from "@/components/forms.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { ConflictError, InvalidInputError } from "@/lib/errors.ts";
import { refusalText } from "@/lib/refusals.ts";
import { applyOf, checkInternshipEdit, postedInternship } from "@/lib/internships/form.ts";
import { updateInternship } from "@/lib/internships/writes.ts";
import { auditIfAdmin } from "@/lib/http/admin_audit.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { FieldProblem } from "@/lib/field_messages.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";

/** A plain submit falls under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

interface Data {
  internship: InternshipView;
  allowed: boolean;
  /** Whether the form says that saving a change takes an admin's "Checked" off: the listing has it, the editor is no admin. */
  losesCheck: boolean;
  /** Whether students' reports hold the listing and the editor is not an admin: what students read cannot change. */
  held: boolean;
  /** What a refused plain HTML submit typed, with the problems at their fields. */
  refused?: Omit<InternshipFormProps, "id" | "text">;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { user } = ctx.state;
    const internship = await getInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      viewer: user,
      audience: "owner",
    });
    const allowed = canManage(user, internship);
    const losesCheck = internship.isVerified && !canModerate(user);
    const held = heldByReports(internship.moderation) && !canModerate(user);
    return ctx.render({ internship, allowed, losesCheck, held }, { status: allowed ? 200 : 403 });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { user } = ctx.state;
    const { kv } = ctx.state.services;
    const internship = await getInternship(kv, { id: ctx.params.id, viewer: user, audience: "owner" });
    if (!canManage(user, internship)) {
      return ctx.render({ internship, allowed: false, losesCheck: false, held: false }, { status: 403 });
    }
    const losesCheck = internship.isVerified && !canModerate(user);
    const held = heldByReports(internship.moderation) && !canModerate(user);
    const start = { values: formValuesOf(internship), apply: applyValuesOf(internship) };
    const posted = postedInternship(await readForm(req), start.apply);
    const refuse = (problems: FieldProblem[], formError?: string) => {
      const errors = Object.fromEntries(problems.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]));
      const refused = { values: posted.values, apply: applyOf(posted), errors, formError };
      // A refusal that is the hold itself says it once, in the form.
      return ctx.render({ internship, allowed: true, losesCheck, held: held && !formError, refused }, { status: 400 });
    };
    const checked = checkInternshipEdit(posted, start);
    if (!checked.ok) return refuse(checked.problems);
    try {
      if (Object.keys(checked.input).length > 0) {
        const audit = auditIfAdmin(ctx.state, { action: "internship.update", targetKind: "internship" });
        await updateInternship(kv, { id: internship.id, actor: user, patch: checked.input, audit });
        return seeOther(`/internships/${internship.id}?saved=1`);
      }
      return seeOther(`/internships/${internship.id}`);
    } catch (error) {
      if (error instanceof ConflictError) return refuse([], refusalText(ctx.state.t, error));
      if (!(error instanceof InvalidInputError)) throw error;
      return refuse(error.fields, error.fields.length === 0 ? error.message : undefined);
    }
  },
});

export default define.page<Data>(function EditInternshipPage(
  { data: { internship, allowed, losesCheck, held, refused } },
) {
  const t = useT();
  if (!allowed) {
    return (
      <MessagePage
        title={t("internships.edit.notAllowed")}
        link={{ href: `/internships/${internship.id}`, label: t("internships.edit.backLink") }}
      >
        <p>{t("internships.edit.notAllowedBody")}</p>
      </MessagePage>
    );
  }
  const title = t("internships.edit.title", { title: internship.title });
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={title} />
      <a href={`/internships/${internship.id}`} class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("internships.edit.back")}
      </a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      {held && (
        <div class="mt-4">
          <Notice kind="info">{t("common.refusal.heldByReports")}</Notice>
        </div>
      )}
      {losesCheck && <p class="mt-2 text-sm text-slate-700">{t("internships.edit.checkedNote")}</p>}
      {internship.applyMode === "platform" && (
        <p class="mt-2 text-sm text-slate-700">{t("internships.edit.applicantsNote")}</p>
      )}
      <div class="mt-6">
        <InternshipForm
          id={internship.id}
          {...refused ?? { values: formValuesOf(internship), apply: applyValuesOf(internship) }}
          text={t.island(INTERNSHIP_FORM_TEXT)}
        />
      </div>
    </section>
  );
});
