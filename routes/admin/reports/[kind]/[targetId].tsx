/**
 * `/admin/reports/{kind}/{targetId}` (admins only): one reported target (docs/decisions.md, Trust, "Reports"): a link
 * to it while it has a page, every report of it, newest first, with its reason, details, reporter, whether it did not
 * count toward a hold (its reporter's earlier report dismissed: docs/decisions.md, Trust, "Dismissed reporters") and how
 * it was resolved, and the form to resolve the open ones, posted here (`POST`, `resolveFromForm`: 303 back with `done=`,
 * or with `problem=`, said above the form, or this page again, 400, with a form sent without its action refused at
 * the form, its note kept). A refusal is drawn on the page of the target its form named, never in another target's
 * form: a hand-made post naming another target answers that target's page. Something nobody reported renders the
 * 404 page.
 */
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { ResolveForm, ResolveProblem, StillHeld } from "@/components/reports/ResolveForm.tsx";
import { ResolutionWords } from "@/components/reports/ResolutionWords.tsx";
import {
  REPORT_KINDS,
  type ReportKind,
  TARGET_ID_MAX,
  type TargetReports,
  targetReports,
} from "@/lib/reports/reports.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { resolveFromForm, type ResolveRefusal } from "@/lib/http/report_resolution.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** The target's reports, and a form sent without its action, refused at the form. */
interface Data extends TargetReports {
  refused?: ResolveRefusal;
}

/**
 * The reports of the target `kind` and `targetId` name (a page's path, or a refused form).
 * @throws NotFoundError for a kind that is none, a target id longer than any report names, or nothing reported.
 */
async function reportsOf(
  kv: Deno.Kv,
  t: Translate,
  { kind, targetId }: { kind: string; targetId: string },
): Promise<TargetReports> {
  const known = (REPORT_KINDS as readonly string[]).includes(kind) && targetId.length <= TARGET_ID_MAX;
  if (!known) throw new NotFoundError();
  return await targetReports(kv, { kind: kind as ReportKind, targetId, t });
}
import { useT } from "@/lib/i18n/context.ts";

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kind, targetId } = ctx.params;
    return ctx.render(await reportsOf(ctx.state.services.kv, ctx.state.t, { kind, targetId }));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const answer = await resolveFromForm(req, ctx.state);
    if (answer instanceof Response) return answer;
    // Drawn for the target the form named: this page's own, unless the post was made by hand.
    const data = await reportsOf(ctx.state.services.kv, ctx.state.t, answer);
    return ctx.render({ ...data, refused: answer }, { status: 400 });
  },
});

export default define.page<Data>(function AdminTargetReportsPage({ data, url }) {
  const { target, reports, refused } = data;
  const done = url.searchParams.get("done");
  const problem = url.searchParams.get("problem");
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="max-w-3xl space-y-6 [overflow-wrap:anywhere]">
      <PageHead title={t("admin.pageTitle", { page: t("admin.reports.targetTitle", { title: target.title }) })} />
      <a href="/admin/reports" class="text-sm text-indigo-700 underline">{t("admin.reports.all")}</a>
      <div>
        <Badge tone="indigo">{t.dynamic(`admin.reports.kind.${target.kind}`)}</Badge>
        <h1 id="page-title" class="mt-2 text-3xl font-bold tracking-tight text-slate-900">{target.title}</h1>
        <p class="mt-2 text-slate-700">
          {target.url
            ? <a href={target.url} class="text-indigo-700 underline">{t("admin.reports.openIt")}</a>
            : t("admin.reports.noPage")}
          {" · "}
          {t("admin.reports.openCount", { count: target.openReports })}
        </p>
      </div>
      {refused && <Notice kind="error">{refused.message}</Notice>}
      {done !== null && <Notice kind="success">{t("admin.reports.resolved", { count: Number(done) || 0 })}</Notice>}
      {url.searchParams.get("held") === "1" && <StillHeld />}
      {problem && <ResolveProblem problem={problem} />}
      {target.status === "open" && (
        <div class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <ResolveForm
            kind={target.kind}
            targetId={target.targetId}
            from={`/admin/reports/${target.kind}/${target.targetId}`}
            refused={refused}
          />
        </div>
      )}
      <section aria-labelledby="reports-heading">
        <h2 id="reports-heading" class="text-xl font-semibold text-slate-900">{t("admin.nav.reports")}</h2>
        <ul class="mt-3 space-y-3">
          {reports.map((report) => (
            <li key={report.id} class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <p class="font-medium text-slate-900">{t.dynamic(`admin.reports.reason.${report.reason}`)}</p>
              {report.details && <p class="mt-1 whitespace-pre-line text-slate-800">{report.details}</p>}
              <p class="mt-1 text-sm text-slate-700">
                {t.rich("admin.reports.by", {
                  name: report.reporter?.name ?? t("admin.reports.deletedAccount"),
                  time: () => <time datetime={report.createdAt}>{t.dateTime(report.createdAt)}</time>,
                })}
                {report.resolution && t.rich(
                  report.resolution.note ? "admin.reports.resolutionNote" : "admin.reports.resolution",
                  {
                    action: <ResolutionWords kind={target.kind} outcome={report.resolution} />,
                    note: report.resolution.note ?? "",
                  },
                )}
              </p>
              {report.notCounted && <p class="mt-1 text-sm text-amber-800">{t("admin.reports.notCounted")}</p>}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
});
