/**
 * `/admin/reports` (admins only, by `/admin`'s middleware): reports grouped by what they report (docs/decisions.md,
 * Trust, "Reports"), most reported first, with the reasons counted, what the newest reporters wrote (a few, cut short;
 * the target's page has every report whole), a link to each target's reports, and a form to
 * resolve all of a target's open reports (dismiss, hide, delete, with a note). `?status=resolved` shows the targets
 * whose reports are all resolved, each with what resolved it and when; `?kind=` one kind. Plain links and forms:
 * `POST` (fields `kind`, `targetId`, `action`, `note`, `from`; `resolveFromForm`) resolves and answers 303 back with
 * `?done=`, or renders the list again (400) with a form sent without its action refused at that form, its note kept
 * (the target's card drawn first when the page lacks it; on the open list, where the forms are, when it was posted to
 * the resolved list), or saying that its reports are resolved already; it works without JavaScript.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import { ResolveForm, ResolveProblem, StillHeld } from "@/components/reports/ResolveForm.tsx";
import { ResolutionWords } from "@/components/reports/ResolutionWords.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { adminListQuery } from "@/lib/http/list_pages.ts";
import { resolveFromForm, type ResolveRefusal } from "@/lib/http/report_resolution.ts";
import {
  AdminReportQuerySchema,
  REPORT_KINDS,
  type ReportedTarget,
  type ReportedTargetPage,
  reportedTargets,
  type ReportKind,
  type ReportReason,
} from "@/lib/reports/reports.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** Targets per page. */
const PAGE_SIZE = 20;

interface Data {
  page: ReportedTargetPage;
  status: "open" | "resolved";
  kind: ReportKind | undefined;
  done: string | null;
  /** A dismissed listing stays held: the never-pay rule holds it too. */
  held: boolean;
  problem: string | null;
  /** The page's path and query without its notices (`done`, `held`, `problem`): where its forms post back. */
  here: string;
  /** A form sent without its action: the list again, the sentence and the note as typed at that target's form. */
  refused?: ResolveRefusal;
}

/**
 * The list a page's query (`search`: `?…`, or empty) asks for (`status`, `kind`, `offset`); the open list's first page
 * for a query it refuses.
 */
async function listOf(kv: Deno.Kv, t: Translate, search: string): Promise<Data> {
  const params = new URLSearchParams(search);
  const query = adminListQuery(AdminReportQuerySchema, params, PAGE_SIZE);
  return {
    page: await reportedTargets(kv, query, t),
    status: query.status,
    kind: query.kind,
    done: params.get("done"),
    held: params.get("held") === "1",
    problem: params.get("problem"),
    here: `/admin/reports${search.replace(/([?&])(done|held|problem)=[^&]*/g, "$1").replace(/[?&]+$/, "")}`,
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    return ctx.render(await listOf(ctx.state.services.kv, ctx.state.t, ctx.url.search));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const answer = await resolveFromForm(req, ctx.state);
    if (answer instanceof Response) return answer;
    const { services: { kv }, t } = ctx.state;
    let list = await listOf(kv, t, ctx.url.search);
    if (answer.open && list.status === "resolved") {
      // Forms are on the open list only: a refusal with a form to keep its note in comes back there (its first page).
      const params = new URLSearchParams(ctx.url.search);
      params.delete("status");
      params.delete("offset");
      list = await listOf(kv, t, params.size ? `?${params}` : "");
    }
    return ctx.render({ ...list, done: null, held: false, problem: null, refused: answer }, { status: 400 });
  },
});

/** The reasons of a target in words: "spam 2, misleading 1". */
function reasonsText(t: Translate, reasons: Partial<Record<ReportReason, number>>): string {
  return Object.entries(reasons).sort(([, a], [, b]) => b - a)
    .map(([reason, count]) =>
      t("admin.reports.reasonCount", { reason: t.dynamic(`admin.reports.short.${reason}`), count })
    ).join(", ");
}

/** What the newest reporters of `target` wrote, newest first, each with its reason and time (nothing when none did). */
function RecentWords({ target }: { target: ReportedTarget }) {
  const t = useT();
  if (target.recentDetails.length === 0) return null;
  const heading = `words-${target.kind}-${target.targetId}`;
  return (
    <section aria-labelledby={heading} class="mt-3">
      <h3 id={heading} class="text-sm font-medium text-slate-700">{t("admin.reports.recentDetails")}</h3>
      <ul class="mt-1 space-y-2">
        {target.recentDetails.map((words, i) => (
          <li key={`${words.createdAt}-${i}`} class="border-l-4 border-slate-300 pl-3">
            <blockquote class="text-sm text-slate-900">{words.details}</blockquote>
            <p class="text-xs text-slate-700">
              {t.dynamic(`admin.reports.short.${words.reason}`)}
              {" · "}
              <time datetime={words.createdAt}>{t.dateTime(words.createdAt)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default define.page<Data>(function AdminReportsPage({ data }) {
  const { page, status, kind, done, held, problem, here, refused } = data;
  const { offset, total } = page.pagination;
  // A refused form's target the page lacks (on another page by now, or of another kind) is drawn first, its note kept.
  const extra = refused?.open && status === "open" &&
      !page.targets.some((target) => target.kind === refused.kind && target.targetId === refused.targetId)
    ? [refused.open]
    : [];
  const targets = [...extra, ...page.targets];
  const href = (parts: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(parts)) if (value) params.set(name, String(value));
    const query = params.toString();
    return `/admin/reports${query ? `?${query}` : ""}`;
  };
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.reports") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.reports")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.reports.lead")}</p>
      </div>
      {done !== null && <Notice kind="success">{t("admin.reports.resolved", { count: Number(done) || 0 })}</Notice>}
      {held && <StillHeld />}
      {problem && <ResolveProblem problem={problem} />}
      {refused && <Notice kind="error">{refused.message}</Notice>}
      <nav aria-label={t("admin.reports.views")} class="flex flex-wrap gap-2">
        {(["open", "resolved"] as const).map((value) => (
          <a
            key={value}
            href={href({ status: value === "open" ? undefined : value, kind })}
            aria-current={status === value ? "page" : undefined}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              status === value ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {t(value === "open" ? "admin.reports.open" : "admin.reports.resolvedTab")}
          </a>
        ))}
        <span class="mx-1 self-center text-slate-500" aria-hidden="true">|</span>
        {[undefined, ...REPORT_KINDS].map((value) => (
          <a
            key={value ?? "all"}
            href={href({ status: status === "open" ? undefined : status, kind: value })}
            aria-current={kind === value ? "page" : undefined}
            class={`rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset ${
              kind === value ? "bg-slate-800 text-white ring-slate-800" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {value ? t.dynamic(`admin.reports.kind.${value}`) : t("admin.reports.allKinds")}
          </a>
        ))}
      </nav>
      {targets.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            {t(status === "open" ? "admin.reports.noneOpen" : "admin.reports.noneResolved")}
          </p>
        )
        : (
          <ul class="space-y-3">
            {targets.map((target) => (
              <li
                key={`${target.kind}-${target.targetId}`}
                class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]"
              >
                <div class="flex flex-wrap items-center gap-2">
                  <Badge tone="indigo">{t.dynamic(`admin.reports.kind.${target.kind}`)}</Badge>
                  {status === "open" && (
                    <Badge tone="red">
                      {t("admin.reports.openCount", { count: target.openReports })}
                    </Badge>
                  )}
                  <span class="text-sm text-slate-700">
                    {t.rich("admin.reports.last", {
                      time: () => <time datetime={target.lastReportedAt}>{t.dateTime(target.lastReportedAt)}</time>,
                    })}
                  </span>
                </div>
                <h2 class="mt-2 font-semibold text-slate-900">
                  <a href={`/admin/reports/${target.kind}/${target.targetId}`} class="underline hover:text-indigo-800">
                    {target.title}
                  </a>
                </h2>
                {target.outcome && (
                  <p class="mt-1 text-sm font-medium text-slate-900">
                    {t.rich("admin.reports.resolvedOn", {
                      time: () => <time datetime={target.outcome!.at}>{t.dateTime(target.outcome!.at)}</time>,
                      outcome: <ResolutionWords kind={target.kind} outcome={target.outcome} />,
                    })}
                  </p>
                )}
                <p class="text-sm text-slate-800">{reasonsText(t, target.reasons)}</p>
                <RecentWords target={target} />
                {status === "open" && (
                  <div class="mt-3">
                    <ResolveForm
                      kind={target.kind}
                      targetId={target.targetId}
                      from={here}
                      refused={refused?.kind === target.kind && refused.targetId === target.targetId
                        ? refused
                        : undefined}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      <Pagination
        position={pagePosition(t, offset, page.targets.length, total)}
        prev={offset > 0
          ? { href: href({ status: status === "open" ? undefined : status, kind, offset: offset - PAGE_SIZE }) }
          : null}
        next={offset + PAGE_SIZE < total
          ? { href: href({ status: status === "open" ? undefined : status, kind, offset: offset + PAGE_SIZE }) }
          : null}
      />
    </section>
  );
});
