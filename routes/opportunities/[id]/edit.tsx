/**
 * `/opportunities/{id}/edit`: its submitter edits a submission awaiting review, or one review rejected, and sends it
 * to review again (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"), with the reviewer's reason
 * above the form. Guests are sent to sign in; another person's or an unknown id is 404; one that cannot be edited any
 * more (published, or rejected by moderation) is sent to its page.
 *
 * `POST` is the form without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript"): the checks and
 * edit of `PUT /api/opportunities/{id}`; success is 303 to the opportunity's page, a refusal renders the page again
 * (400) with what was typed and a sentence beside each field in error. A submitter's edit of a submission an admin
 * reviewed (or moderation rejected) since the page was opened renders the page again (409) with what was typed and
 * the sentence saying the changes were not saved; another person's is sent to the opportunity's page.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import OpportunityForm, { OPPORTUNITY_FORM_TEXT, type OpportunityFormProps } from "@/islands/OpportunityForm.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { ConflictError } from "@/lib/errors.ts";
import { canResubmit } from "@/lib/opportunities/policy.ts";
import { heldByReports } from "@/lib/moderation/moderation.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import {
  getOpportunity,
  NOT_EDITABLE,
  OPPORTUNITY_FORM_FIELDS,
  type OpportunityFormField,
  type OpportunityView,
  parseOpportunityForm,
  resubmitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Edits and submissions fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

interface Data extends Pick<OpportunityFormProps, "errors" | "formError"> {
  opportunity: OpportunityView;
  initial: Record<OpportunityFormField, string>;
}

/** The form's values of `o` (unset text is `""`). */
function valuesOf(o: OpportunityView): Record<OpportunityFormField, string> {
  return Object.fromEntries(OPPORTUNITY_FORM_FIELDS.map((field) => [field, o[field] ?? ""])) as Record<
    OpportunityFormField,
    string
  >;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    if (!canResubmit(ctx.state.user, opportunity)) return seeOther(`/opportunities/${opportunity.id}`);
    return ctx.render({ opportunity, initial: valuesOf(opportunity) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv } = ctx.state.services;
    const opportunity = await getOpportunity(kv, ctx.params.id, ctx.state.user);
    if (opportunity.userId !== ctx.state.user.id) return seeOther(`/opportunities/${opportunity.id}`);
    const fields = await readFormFields(req, OPPORTUNITY_FORM_FIELDS);
    // Reviewed (or held by reports) since the page was opened: what was typed stays on the page with the reason it was
    // not saved.
    const refused = (name: "heldByReports" | "opportunityReviewed") =>
      ctx.render({ opportunity, initial: fields, formError: ctx.state.t(`common.refusal.${name}`) }, { status: 409 });
    const reviewed = () => refused(heldByReports(opportunity.moderation) ? "heldByReports" : "opportunityReviewed");
    if (!canResubmit(ctx.state.user, opportunity)) return reviewed();
    const parsed = parseOpportunityForm(fields);
    if (!parsed.ok) {
      const errors = Object.fromEntries(
        parsed.problems.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]),
      );
      return ctx.render({ opportunity, initial: fields, errors }, { status: 400 });
    }
    try {
      await resubmitOpportunity(kv, { user: ctx.state.user, id: opportunity.id, input: parsed.input });
    } catch (error) {
      if (error instanceof ConflictError && error.message === REFUSALS.heldByReports) return refused("heldByReports");
      if (error instanceof ConflictError && error.message === NOT_EDITABLE) return reviewed();
      throw error;
    }
    return seeOther(`/opportunities/${opportunity.id}?resubmitted=1`);
  },
});

export default define.page<Data>(
  function EditOpportunityPage({ data: { opportunity: o, initial, errors, formError } }) {
    const t = useT();
    const rejected = !o.isActive;
    return (
      <section aria-labelledby="page-title" class="mx-auto w-full max-w-2xl [overflow-wrap:anywhere]">
        <PageHead title={t("opportunities.edit.pageTitle", { title: o.title })} />
        <a href={`/opportunities/${o.id}`} class="text-sm text-indigo-700 underline">{t("opportunities.edit.back")}</a>
        <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">
          {t("opportunities.edit.title")}
        </h1>
        {
          // Once reviewed, where it stood when the page was opened is no longer true: the form's refusal says so.
          !formError && (
            <div class="mt-4">
              {rejected
                ? (
                  <Notice kind="info" title={t("opportunities.edit.whyTitle")}>
                    {o.rejection?.reason ?? t("opportunities.detail.noReason")}{" "}
                    {t("opportunities.edit.changeAndResubmit")}
                  </Notice>
                )
                : <p class="text-slate-700">{t("opportunities.edit.awaiting")}</p>}
            </div>
          )
        }
        <div class="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <OpportunityForm
            reviewed={false}
            initial={initial}
            errors={errors}
            formError={formError}
            editing={o.id}
            text={t.island(OPPORTUNITY_FORM_TEXT)}
          />
        </div>
      </section>
    );
  },
);
