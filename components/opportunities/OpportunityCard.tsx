/**
 * One opportunity in a list: title (linking to its page), type badge, dates with whether it is
 * upcoming, ongoing or closed, location, organizer and who posted it; with `showState`, its review
 * state (for "My submissions").
 */
import type { OpportunityStatus, OpportunityView } from "@/lib/opportunities/schema.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import type { ComponentChildren } from "preact";
import { SaveListing } from "@/components/SaveListing.tsx";
import { STATUS_KEYS, STATUS_TONES, TIMING_KEYS, timingOf, TYPE_KEYS } from "@/lib/browser/opportunity_format.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The badge of `timingOf`: red once closed. */
export function TimingBadge({ o }: { o: { startDate: string; endDate: string } }) {
  const t = useT();
  const timing = timingOf(o);
  return <Badge tone={timing === "closed" ? "red" : "slate"}>{t(TIMING_KEYS[timing])}</Badge>;
}

/** The dates of an opportunity: one day, or a range. */
export function DateRange({ o }: { o: { startDate: string; endDate: string } }) {
  const t = useT();
  return (
    <span>
      <time datetime={o.startDate}>{t.date(o.startDate)}</time>
      {o.endDate !== o.startDate && (
        <>
          {" – "}
          <time datetime={o.endDate}>{t.date(o.endDate)}</time>
        </>
      )}
    </span>
  );
}

/**
 * An opportunity card; `status` adds the review state (the submitter's list); with `signedIn` given, a save button
 * (for a guest, one that leads to sign in); `children` at the foot (e.g. why it is recommended).
 */
export function OpportunityCard(
  { o, status, signedIn, headingLevel = 2, children }: {
    o: OpportunityView;
    status?: OpportunityStatus;
    signedIn?: boolean;
    headingLevel?: 2 | 3;
    children?: ComponentChildren;
  },
) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const t = useT();
  return (
    <article class="rounded-lg border border-slate-200 bg-white p-5 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-center justify-between gap-2">
        <div class="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{t(TYPE_KEYS[o.type].one)}</Badge>
          <TimingBadge o={o} />
          {status && <Badge tone={STATUS_TONES[status]}>{t(STATUS_KEYS[status])}</Badge>}
        </div>
        {signedIn !== undefined && (
          <SaveListing
            kind="opportunities"
            id={o.id}
            title={o.title}
            signedIn={signedIn}
          />
        )}
      </div>
      <Heading class="mt-3 text-lg font-semibold text-slate-900">
        <a href={`/opportunities/${o.id}`} class="hover:text-indigo-700 hover:underline">{o.title}</a>
      </Heading>
      <dl class="mt-2 grid gap-1 text-sm text-slate-700">
        <div>
          <dt class="sr-only">{t("opportunities.card.dates")}</dt>
          <dd>
            <DateRange o={o} />
          </dd>
        </div>
        {o.location && (
          <div>
            <dt class="sr-only">{t("opportunities.card.location")}</dt>
            <dd>{o.location}</dd>
          </div>
        )}
        {o.organizer && (
          <div>
            <dt class="sr-only">{t("opportunities.card.organizer")}</dt>
            <dd>{t("opportunities.card.by", { organizer: o.organizer })}</dd>
          </div>
        )}
        <div>
          <dt class="sr-only">{t("opportunities.card.postedBy")}</dt>
          <dd>{t("opportunities.card.postedByName", { name: o.postedBy?.name ?? t("common.formerMember") })}</dd>
        </div>
      </dl>
      {children}
    </article>
  );
}
