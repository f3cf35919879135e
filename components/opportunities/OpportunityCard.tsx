/**
 * One opportunity in a list: title (linking to its page), type badge, dates with whether it is
 * upcoming, ongoing or closed, location, organizer and who posted it; with `showState`, its review
 * state (for "My submissions").
 */
import type { OpportunityStatus, OpportunityView } from "@/lib/opportunities/schema.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import type { ComponentChildren } from "preact";
import SaveButton from "@/islands/SaveButton.tsx";
import { formatDay, STATUS_LABELS, timing, TYPE_LABELS } from "@/lib/browser/opportunity_format.ts";

/** The badge of `timing`: red once closed. */
export function TimingBadge({ o }: { o: { startDate: string; endDate: string } }) {
  const text = timing(o);
  return <Badge tone={text === "Closed" ? "red" : "slate"}>{text}</Badge>;
}

/** The dates of an opportunity: one day, or a range. */
export function DateRange({ o }: { o: { startDate: string; endDate: string } }) {
  return (
    <span>
      <time datetime={o.startDate}>{formatDay(o.startDate)}</time>
      {o.endDate !== o.startDate && (
        <>
          {" – "}
          <time datetime={o.endDate}>{formatDay(o.endDate)}</time>
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
  return (
    <article class="rounded-lg border border-slate-200 bg-white p-5 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-center justify-between gap-2">
        <div class="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{TYPE_LABELS[o.type]}</Badge>
          <TimingBadge o={o} />
          {status && <Badge tone={STATUS_LABELS[status].tone}>{STATUS_LABELS[status].label}</Badge>}
        </div>
        {signedIn !== undefined && <SaveButton kind="opportunities" id={o.id} title={o.title} signedIn={signedIn} />}
      </div>
      <Heading class="mt-3 text-lg font-semibold text-slate-900">
        <a href={`/opportunities/${o.id}`} class="hover:text-indigo-700 hover:underline">{o.title}</a>
      </Heading>
      <dl class="mt-2 grid gap-1 text-sm text-slate-700">
        <div>
          <dt class="sr-only">Dates</dt>
          <dd>
            <DateRange o={o} />
          </dd>
        </div>
        {o.location && (
          <div>
            <dt class="sr-only">Location</dt>
            <dd>{o.location}</dd>
          </div>
        )}
        {o.organizer && (
          <div>
            <dt class="sr-only">Organizer</dt>
            <dd>By {o.organizer}</dd>
          </div>
        )}
        <div>
          <dt class="sr-only">Posted by</dt>
          <dd>Posted by {o.postedBy?.name ?? FORMER_MEMBER}</dd>
        </div>
      </dl>
      {children}
    </article>
  );
}
