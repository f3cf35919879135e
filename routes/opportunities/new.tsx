/**
 * `/opportunities/new`: the submit form for signed-in users (guests are sent to sign in and
 * back). A `user` is told that an admin reviews the submission; members and admins publish at
 * once (`publishesAtOnce` of `lib/opportunities/policy.ts`).
 *
 * `POST /opportunities/new` is the form without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): its fields, the checks and submission of `POST /api/opportunities`; success is 303 to "My
 * submissions", a refusal renders the page again (400) with what was typed and a sentence beside each field in error.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import OpportunityForm, { OPPORTUNITY_FORM_TEXT, type OpportunityFormProps } from "@/islands/OpportunityForm.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { publishesAtOnce } from "@/lib/opportunities/policy.ts";
import { OPPORTUNITY_FORM_FIELDS, parseOpportunityForm, submitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Edits and submissions fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

type Data = Pick<OpportunityFormProps, "reviewed" | "initial" | "errors">;

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render({ reviewed: !publishesAtOnce(ctx.state.user) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const fields = await readFormFields(req, OPPORTUNITY_FORM_FIELDS);
    const parsed = parseOpportunityForm(fields);
    const reviewed = !publishesAtOnce(ctx.state.user);
    if (!parsed.ok) {
      const errors = Object.fromEntries(
        parsed.problems.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]),
      );
      return ctx.render({ reviewed, initial: fields, errors }, { status: 400 });
    }
    await submitOpportunity(ctx.state.services.kv, ctx.state.user, parsed.input);
    return seeOther("/opportunities/mine?submitted=1");
  },
});

export default define.page<Data>(function NewOpportunityPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto w-full max-w-2xl">
      <PageHead title={t("opportunities.list.submit")} />
      <a href="/opportunities" class="text-sm text-indigo-700 underline">{t("opportunities.detail.all")}</a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">
        {t("opportunities.list.submit")}
      </h1>
      <p class="mt-2 text-slate-700">{t("opportunities.new.lead")}</p>
      <div class="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <OpportunityForm {...data} text={t.island(OPPORTUNITY_FORM_TEXT)} />
      </div>
    </section>
  );
});
