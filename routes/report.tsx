/**
 * `/report`: report a listing, an organization, a post or a comment (docs/decisions.md, Trust, "Reports") without
 * JavaScript. `GET ?kind=&id=&back=` shows what is reported and the form (a guest is sent to sign in and back), or,
 * when the person's report of it is open, "You reported this on …" (one report is open at a time); `POST` (the form's
 * fields `kind`, `id`, `back`, `reason`, `details`, from here or from a "Report" control on the page itself) files the
 * report as `POST /api/reports` does and answers 303 to `?sent=1&back=`, which thanks the person and links back, or,
 * when their report is open already, 303 to `?kind=&id=&back=`, which says so; a refusal renders the form again with
 * what went wrong (400, 403, 404, 429).
 */
import { useT } from "@/lib/i18n/context.ts";
import { refusalText } from "@/lib/refusals.ts";
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { ReportForm } from "@/components/reports/ReportForm.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { ForbiddenError, NotFoundError, RateLimitedError } from "@/lib/errors.ts";
import {
  checkReport,
  createReport,
  openReportOf,
  REPORT_KINDS,
  ReportCreateSchema,
  type ReportKind,
} from "@/lib/reports/reports.ts";
import { findTarget, targetTitle } from "@/lib/reports/targets.ts";

/** The page: sent (thanks), or the form for a target with what went wrong. */
type Data =
  | { sent: true; back: string }
  | { sent: false; back: string; reportedAt: string }
  | {
    sent: false;
    back: string;
    target: { kind: ReportKind; id: string; title: string } | null;
    reason?: string;
    details?: string;
    error?: string;
    detailsError?: string;
  };

/** `value` as a kind of report, or null. */
function kindOf(value: string | null): ReportKind | null {
  return (REPORT_KINDS as readonly string[]).includes(value ?? "") ? value as ReportKind : null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const params = ctx.url.searchParams;
    const back = returnPage(params.get("back"), ctx.state.services.config.appUrl) ?? "/";
    if (params.get("sent") === "1") return ctx.render({ sent: true, back });
    const kind = kindOf(params.get("kind"));
    const id = (params.get("id") ?? "").slice(0, 100);
    try {
      if (!kind || !id) throw new NotFoundError();
      const target = await findTarget(ctx.state.services.kv, kind, id, ctx.state.user);
      const open = await openReportOf(ctx.state.services.kv, { userId: ctx.state.user.id, kind, targetId: id });
      if (open) return ctx.render({ sent: false, back, reportedAt: open.createdAt });
      return ctx.render({ sent: false, back, target: { kind, id, title: targetTitle(target, ctx.state.t) } });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return ctx.render({ sent: false, back, target: null, error: ctx.state.t("trust.reportPage.nothing") }, {
        status: 404,
      });
    }
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, config } = ctx.state.services;
    const form = await readFormFields(req, ["kind", "id", "back", "reason", "details"]);
    const back = returnPage(form.back, config.appUrl) ?? "/";
    const kind = kindOf(form.kind);
    const { t } = ctx.state;
    let title = "";
    const again = (status: number, problem: { error?: string; detailsError?: string }) =>
      ctx.render({
        sent: false,
        back,
        target: kind ? { kind, id: form.id, title } : null,
        reason: form.reason,
        details: form.details,
        ...problem,
      }, { status });
    try {
      if (!kind) throw new NotFoundError();
      title = targetTitle(await findTarget(kv, kind, form.id, ctx.state.user), t);
      const body = ReportCreateSchema.safeParse({
        kind,
        id: form.id,
        reason: form.reason || undefined,
        details: form.details,
      });
      if (!body.success) {
        const fields = new Set(body.error.issues.map((issue) => String(issue.path[0])));
        if (fields.has("reason")) return again(400, { error: t("trust.reportPage.chooseReason") });
        return again(400, {
          detailsError: t(form.details.length > 1000 ? "trust.reportPage.tooLong" : "trust.reportPage.tellUs"),
        });
      }
      const check = await checkReport(kv, ctx.state.user, body.data);
      if ("open" in check) return seeOther(`/report?${new URLSearchParams({ kind, id: form.id, back })}`);
      await ctx.state.services.rateLimits.hit(RATE_LIMITS.reportsPerPerson, ctx.state.user.id);
      const filed = await createReport(kv, ctx.state.user, body.data, check.target);
      const sent: Record<string, string> = filed.created ? { sent: "1", back } : { kind, id: form.id, back };
      return seeOther(`/report?${new URLSearchParams(sent)}`);
    } catch (error) {
      if (error instanceof NotFoundError) return again(404, { error: t("trust.reportPage.nothing") });
      if (error instanceof ForbiddenError) return again(403, { error: refusalText(t, error) });
      if (error instanceof RateLimitedError) {
        return again(429, { error: t("trust.reportPage.limit", { limit: RATE_LIMITS.reportsPerPerson.limit }) });
      }
      throw error;
    }
  },
});

export default define.page<Data>(function ReportPage({ data }) {
  const t = useT();
  if (data.sent) {
    return (
      <FormCard title={t("trust.reportPage.thanks")} lead={t("trust.reportPage.thanksLead")}>
        <PageHead title={t("trust.reportPage.sent")} />
        <p>
          <a href={data.back} class="font-medium text-indigo-700 underline">{t("trust.reportPage.back")}</a>
        </p>
      </FormCard>
    );
  }
  if ("reportedAt" in data) {
    return (
      <FormCard
        title={t("trust.reportPage.already")}
        lead={t("trust.reportPage.alreadyLead", { date: t.date(data.reportedAt) })}
      >
        <PageHead title={t("trust.reportPage.already")} />
        <p>
          <a href={data.back} class="font-medium text-indigo-700 underline">{t("trust.reportPage.back")}</a>
        </p>
      </FormCard>
    );
  }
  const { target } = data;
  return (
    <FormCard
      title={t("trust.reportPage.title")}
      lead={target ? t("trust.reportPage.target", { title: target.title }) : undefined}
    >
      <PageHead title={t("trust.reportPage.title")} />
      {data.error && <Notice kind="error">{data.error}</Notice>}
      {target && (
        <ReportForm
          kind={target.kind}
          id={target.id}
          back={data.back}
          reason={data.reason}
          details={data.details}
          error={data.detailsError}
        />
      )}
      <p class="text-sm">
        <a href={data.back} class="text-indigo-700 underline">{t("trust.reportPage.cancel")}</a>
      </p>
    </FormCard>
  );
});
