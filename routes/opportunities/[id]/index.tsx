/**
 * `/opportunities/{id}`: one opportunity with its dates, place, organizer, who posted it, the
 * link (new tab, no referrer or opener, `nofollow`) and "Add to calendar" (`calendar.ics`), those two only once it is
 * published (one awaiting review or rejected is not open to apply) and while it is not closed.
 * Unpublished ones only for their owner and admins, with the review state shown; else 404, or 410 with a page saying
 * an admin removed it when review rejected it or a report's resolution took it down. Its submitter reads why
 * review rejected it and may edit it and submit it again (docs/decisions.md, Opportunities, "Reject with a reason,
 * resubmit"); `?resubmitted=1` (after that form) confirms it. A signed-in person whose report of it is open reads when
 * they sent it in place of the report form (docs/decisions.md, Trust, "Reports").
 */
import { define } from "@/lib/platform/define.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { DateRange, TimingBadge } from "@/components/opportunities/OpportunityCard.tsx";
import { STATUS_KEYS, STATUS_TONES, TIMING_KEYS, timingOf, TYPE_KEYS } from "@/lib/browser/opportunity_format.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { ModerationNotice } from "@/components/moderation/ModerationNotice.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";
import { SaveListing } from "@/components/SaveListing.tsx";
import { opportunityEvent } from "@/lib/seo/json_ld.ts";
import {
  getOpportunity,
  isOpportunityRemoved,
  type OpportunityView,
  statusOf,
} from "@/lib/opportunities/opportunities.ts";
import { RemovedListing } from "@/components/moderation/RemovedListing.tsx";
import { NotFoundError } from "@/lib/errors.ts";
import { canResubmit } from "@/lib/opportunities/policy.ts";
import { Notice } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { openReportOf } from "@/lib/reports/reports.ts";

/** The opportunity, and when the signed-in reader reported it if their report is open (null: none). */
interface OpportunityPageData {
  opportunity: OpportunityView;
  reportedAt: string | null;
}

/** The page of an opportunity an admin removed (410). */
interface RemovedPageData {
  removed: true;
}

export const handler = define.handlers<OpportunityPageData | RemovedPageData>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const { user } = ctx.state;
    const opportunity = await getOpportunity(kv, ctx.params.id, user).catch(async (error) => {
      if (error instanceof NotFoundError && await isOpportunityRemoved(kv, ctx.params.id)) return null;
      throw error;
    });
    if (!opportunity) return ctx.render({ removed: true }, { status: 410 });
    const report = user
      ? await openReportOf(kv, { userId: user.id, kind: "opportunity", targetId: opportunity.id })
      : null;
    return ctx.render({ opportunity, reportedAt: report?.createdAt ?? null });
  },
});

/** What the submitter reads about the review of their submission, with the way to edit it and submit it again. */
function ReviewNotice({ o, resubmitted }: { o: OpportunityView; resubmitted: boolean }) {
  const t = useT();
  const edit = (
    <a href={`/opportunities/${o.id}/edit`} class="mt-2 inline-block font-medium underline">
      {t(o.isActive ? "opportunities.detail.edit" : "opportunities.detail.editAgain")}
    </a>
  );
  if (!o.isActive) {
    return (
      <Notice kind="error" title={t("opportunities.detail.rejected")}>
        <p>
          {o.rejection?.reason
            ? t("opportunities.detail.reason", { reason: o.rejection.reason })
            : t("opportunities.detail.noReason")}
        </p>
        {edit}
      </Notice>
    );
  }
  return (
    <Notice
      kind={resubmitted ? "success" : "info"}
      title={t(resubmitted ? "opportunities.detail.resubmitted" : "opportunities.detail.awaiting")}
    >
      <p>{t(o.rejection ? "opportunities.detail.reviewsChanges" : "opportunities.detail.reviewsFirst")}</p>
      {edit}
    </Notice>
  );
}

export default define.page<OpportunityPageData | RemovedPageData>(function OpportunityPage({ data, state, url }) {
  if ("removed" in data) return <RemovedListing kind="opportunities" />;
  const { opportunity: o, reportedAt } = data;
  const t = useT();
  const status = statusOf(o);
  const type = t(TYPE_KEYS[o.type].one);
  const when = t(TIMING_KEYS[timingOf(o)]);
  const notGiven = t("opportunities.detail.notGiven");
  return (
    <article aria-labelledby="page-title" class="[overflow-wrap:anywhere] mx-auto max-w-3xl">
      <PageHead
        title={o.title}
        description={o.description ?? `${type}: ${when}${o.location ? `, ${o.location}` : ""}`}
        jsonLd={status === "approved" ? opportunityEvent(o, state.services.config.appUrl) : null}
      />
      <a href="/opportunities" class="text-sm text-indigo-700 underline">{t("opportunities.detail.all")}</a>
      <div class="mt-4 flex flex-wrap gap-2">
        <Badge tone="indigo">{type}</Badge>
        <TimingBadge o={o} />
        {status !== "approved" && <Badge tone={STATUS_TONES[status]}>{t(STATUS_KEYS[status])}</Badge>}
      </div>
      <div class="mt-3 flex flex-wrap items-start justify-between gap-3">
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{o.title}</h1>
        {status === "approved" && (
          <SaveListing
            kind="opportunities"
            id={o.id}
            title={o.title}
            signedIn={Boolean(state.user)}
          />
        )}
      </div>
      {canResubmit(state.user, o) && o.moderation.status !== "held" && (
        <div class="mt-4">
          <ReviewNotice o={o} resubmitted={url.searchParams.has("resubmitted")} />
        </div>
      )}
      {o.moderation.status !== "clear" && (
        <div class="mt-4">
          <ModerationNotice moderation={o.moderation} listing={o} noun="opportunity" />
        </div>
      )}
      <dl class="mt-6 grid gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2">
        <div>
          <dt class="text-sm font-medium text-slate-700">{t("opportunities.detail.dates")}</dt>
          <dd class="mt-1 text-slate-900">
            <DateRange o={o} />
          </dd>
        </div>
        <div>
          <dt class="text-sm font-medium text-slate-700">{t("opportunities.detail.location")}</dt>
          <dd class="mt-1 text-slate-900">{o.location ?? notGiven}</dd>
        </div>
        <div>
          <dt class="text-sm font-medium text-slate-700">{t("opportunities.detail.organizer")}</dt>
          <dd class="mt-1 text-slate-900">{o.organizer ?? notGiven}</dd>
        </div>
        <div>
          <dt class="text-sm font-medium text-slate-700">{t("opportunities.detail.postedBy")}</dt>
          <dd class="mt-1 text-slate-900">{o.postedBy?.name ?? t("common.formerMember")}</dd>
        </div>
      </dl>
      {o.description && <p class="mt-6 whitespace-pre-line text-slate-800">{o.description}</p>}
      {status === "approved" && !o.isClosed && (
        <div class="mt-8 flex flex-wrap gap-3">
          {o.link && (
            <a
              href={o.link}
              target="_blank"
              rel="noopener noreferrer nofollow"
              class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
            >
              {t("opportunities.detail.apply")} <span class="sr-only">{t("common.newTab")}</span>
            </a>
          )}
          <a
            href={`/opportunities/${o.id}/calendar.ics`}
            download
            class="rounded-md border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
          >
            {t("opportunities.detail.calendar")}
          </a>
        </div>
      )}
      {state.user?.id !== o.userId && (
        <div class="mt-8">
          <ReportControl
            kind="opportunity"
            id={o.id}
            back={`/opportunities/${o.id}`}
            label={t("opportunities.detail.report")}
            signedIn={Boolean(state.user)}
            reportedAt={reportedAt}
          />
        </div>
      )}
    </article>
  );
});
