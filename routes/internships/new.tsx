/**
 * `/internships/new`: the form to post an internship. Guests are sent to sign in and back;
 * a signed-in `user` gets a 403 page explaining that members post (docs/decisions.md, Auth, "Ingest
 * user"); members and admins get the form, which posts to `POST /api/internships`.
 *
 * `POST /internships/new` is the form without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): its fields, the checks and creation of `POST /api/internships` (`lib/internships/form.ts`); success is
 * 303 to the new listing (`?posted=1`, which says so), a refusal renders the page again (400) with what was typed and a sentence beside each field.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { canPost } from "@/lib/internships/policy.ts";
import { applyValuesOf, EMPTY_FORM } from "@/lib/browser/internship_form.ts";
import { MessagePage } from "@/components/internships/MessagePage.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipForm, { INTERNSHIP_FORM_TEXT, type InternshipFormProps } from "@/islands/InternshipForm.tsx";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { applyOf, checkInternshipCreate, postedInternship } from "@/lib/internships/form.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { FieldProblem } from "@/lib/field_messages.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";

/** A plain submit falls under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

interface Data {
  allowed: boolean;
  /** What a refused plain HTML submit typed, with the problems at their fields. */
  refused?: Omit<InternshipFormProps, "id" | "text">;
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const allowed = canPost(ctx.state.user);
    return ctx.render({ allowed }, { status: allowed ? 200 : 403 });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    if (!canPost(ctx.state.user)) return ctx.render({ allowed: false }, { status: 403 });
    const posted = postedInternship(await readForm(req));
    const refuse = (problems: FieldProblem[], formError?: string) => {
      const errors = Object.fromEntries(problems.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]));
      const refused = { values: posted.values, apply: applyOf(posted), errors, formError };
      return ctx.render({ allowed: true, refused }, { status: 400 });
    };
    const checked = checkInternshipCreate(posted);
    if (!checked.ok) return refuse(checked.problems);
    try {
      const [created] = await createInternships(ctx.state.services.kv, ctx.state.user, [checked.input]);
      return seeOther(`/internships/${created.id}?posted=1`);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return refuse(error.fields, error.fields.length === 0 ? error.message : undefined);
    }
  },
});

export default define.page<Data>(function NewInternshipPage({ data }) {
  const t = useT();
  if (!data.allowed) {
    return (
      <MessagePage
        title={t("internships.new.membersOnly")}
        link={{ href: "/internships", label: t("internships.new.browse") }}
      >
        <p>
          {t.rich("internships.new.membersOnlyBody", {
            link: (chunks) => <a href="/contact" class="font-medium text-indigo-700 underline">{chunks}</a>,
          })}
        </p>
      </MessagePage>
    );
  }
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={t("internships.new.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("internships.new.title")}</h1>
      <p class="mt-2 text-slate-700">{t("internships.new.lead")}</p>
      <div class="mt-6">
        <InternshipForm
          {...data.refused ?? { values: EMPTY_FORM, apply: applyValuesOf() }}
          text={t.island(INTERNSHIP_FORM_TEXT)}
        />
      </div>
    </section>
  );
});
