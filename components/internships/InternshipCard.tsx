/**
 * One internship in a result list: title (linking to its page), organization (linking to its page), type and timing
 * badges, stipend in ₹, location, deadline with the days left, the verified badge and tags.
 * Rendered by the server and by the filter island alike, in the page's language (`useT`: inside the island, the
 * island's messages, `INTERNSHIP_FILTERS_TEXT`).
 */
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { ComponentChildren } from "preact";
import { SaveListing } from "@/components/SaveListing.tsx";
import { deadlineStatus, describeDeadline, TIMING_KEYS, TYPE_KEYS } from "@/lib/browser/internship_format.ts";
import { stipendText } from "@/lib/internships/stipend.ts";
import { useT } from "@/lib/i18n/context.ts";
import { VerifiedBadge } from "@/components/organizations/OrganizationBadge.tsx";
import { isVerifiedListing } from "@/lib/browser/organization_format.ts";

/** A small pill for type, timing and state badges. */
export function Badge({ children, tone = "slate" }: { children: string; tone?: "slate" | "indigo" | "amber" | "red" }) {
  const tones = {
    slate: "bg-slate-100 text-slate-800 ring-slate-300",
    indigo: "bg-indigo-50 text-indigo-800 ring-indigo-200",
    amber: "bg-amber-50 text-amber-900 ring-amber-300",
    red: "bg-red-50 text-red-800 ring-red-200",
  };
  return (
    <span
      class={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/**
 * The hiring organization as the poster named it, linking to its organization's page (docs/decisions.md, Trust,
 * "Organizations"); plain text for a listing not linked yet.
 */
export function OrganizationLink(
  { internship }: { internship: Pick<InternshipView, "hiringOrganization" | "organization"> },
) {
  if (!internship.organization) return <>{internship.hiringOrganization}</>;
  return (
    <a
      href={`/organizations/${internship.organization.slug}`}
      class="underline decoration-slate-300 underline-offset-2 hover:text-indigo-700 hover:decoration-indigo-700"
    >
      {internship.hiringOrganization}
    </a>
  );
}

/**
 * The deadline line: date and days left, or "Closed"; "Applications closed" once its poster closed them (`closedAt`;
 * docs/decisions.md, Open and closed listings, "Closed by the poster").
 */
export function Deadline({ deadline, closedAt = null }: { deadline: string | null; closedAt?: string | null }) {
  const t = useT();
  if (closedAt) return <span class="font-medium text-red-700">{t("internships.deadline.closedEarly")}</span>;
  const text = describeDeadline(deadline);
  if (!text) return <span>{t("internships.deadline.none")}</span>;
  const date = <time datetime={text.iso}>{t.date(text.iso)}</time>;
  return (
    <span>
      {t.rich("internships.deadline.applyBy", { date })}{" "}
      <span class={text.closed ? "font-medium text-red-700" : "text-slate-700"}>
        ({deadlineStatus(t, text.days)})
      </span>
    </span>
  );
}

/**
 * Badges for type and timing, "Closed" once the deadline passed, plus "Inactive"/"Deleted" and the moderation state
 * ("Held for review", "Not approved") when `showState`.
 */
export function InternshipBadges(
  { internship, showState = false }: { internship: InternshipView; showState?: boolean },
) {
  const t = useT();
  const { type, timing } = internship;
  return (
    <div class="flex flex-wrap gap-2">
      {internship.isClosed && <Badge tone="red">{t("internships.deadline.closed")}</Badge>}
      {type && <Badge tone="indigo">{t(TYPE_KEYS[type])}</Badge>}
      {timing && <Badge>{t(TIMING_KEYS[timing])}</Badge>}
      {showState && !internship.isActive && <Badge tone="amber">{t("internships.badge.inactive")}</Badge>}
      {showState && internship.deletedAt && <Badge tone="red">{t("internships.badge.deleted")}</Badge>}
      {showState && internship.moderation.status === "held" && <Badge tone="amber">{t("internships.badge.held")}
      </Badge>}
      {showState && internship.moderation.status === "rejected" && (
        <Badge tone="red">{t("internships.badge.rejected")}</Badge>
      )}
    </div>
  );
}

/** The tags of an internship as a list. */
export function TagList({ tags }: { tags: string[] }) {
  const t = useT();
  if (tags.length === 0) return null;
  return (
    <ul aria-label={t("internships.card.tags")} class="flex flex-wrap gap-1.5">
      {tags.map((tag) => <li key={tag} class="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{tag}</li>)}
    </ul>
  );
}

/**
 * Which a long list's card gets: the browser skips its style, layout and paint while it is off screen
 * (`content-visibility: auto`), holding its place at a card's usual height until then (docs/performance.md,
 * Lighthouse, "Cards off screen").
 */
const OFF_SCREEN =
  "[content-visibility:auto] [contain-intrinsic-size:auto_15rem] sm:[contain-intrinsic-size:auto_11rem]";

/**
 * A result card; `headingLevel` keeps the page's heading order, `showState` adds the inactive and deleted badges;
 * with `signedIn` given, a save button (for a guest, one that leads to sign in); `inList` for a card of a long list,
 * whose rendering waits until it comes near the screen.
 */
export function InternshipCard(
  { internship, showState = false, headingLevel = 3, linked = true, signedIn, inList = false, children }: {
    internship: InternshipView;
    showState?: boolean;
    headingLevel?: 2 | 3;
    /** False for a deleted internship, whose page is gone. */
    linked?: boolean;
    signedIn?: boolean;
    inList?: boolean;
    /** Shown at the card's foot (e.g. why it is recommended). */
    children?: ComponentChildren;
  },
) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const t = useT();
  const byOrganization = internship.organization?.isVerified;
  return (
    <article
      class={"rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 " +
        `[overflow-wrap:anywhere]${inList ? ` ${OFF_SCREEN}` : ""}`}
      aria-labelledby={`internship-${internship.id}`}
    >
      <div class="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Heading id={`internship-${internship.id}`} class="text-lg font-semibold text-slate-900">
            {linked
              ? (
                <a
                  href={`/internships/${internship.id}`}
                  class="rounded hover:text-indigo-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
                >
                  {internship.title}
                </a>
              )
              : internship.title}
          </Heading>
          <p class="text-slate-700">
            <OrganizationLink internship={internship} />
          </p>
        </div>
        <div class="flex flex-wrap items-center gap-3">
          {isVerifiedListing(internship) && (
            <VerifiedBadge
              word={t(byOrganization ? "trust.verified.word" : "trust.checked.word")}
              label={t(byOrganization ? "trust.verified.organization" : "trust.verified.listing")}
              by={byOrganization ? "organization" : "listing"}
            />
          )}
          {signedIn !== undefined && (
            <SaveListing kind="internships" id={internship.id} title={internship.title} signedIn={signedIn} />
          )}
        </div>
      </div>
      <div class="mt-3">
        <InternshipBadges internship={internship} showState={showState} />
      </div>
      <dl class="mt-3 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-3">
        <div>
          <dt class="sr-only">{t("internships.card.stipend")}</dt>
          <dd class="font-medium text-slate-900">{stipendText(t, internship.stipend)}</dd>
        </div>
        <div>
          <dt class="sr-only">{t("internships.card.location")}</dt>
          <dd>{internship.location ?? t("internships.card.noLocation")}</dd>
        </div>
        <div>
          <dt class="sr-only">{t("internships.card.deadline")}</dt>
          <dd>
            <Deadline deadline={internship.deadline} closedAt={internship.closedAt} />
          </dd>
        </div>
      </dl>
      <div class="mt-3">
        <TagList tags={internship.tags} />
      </div>
      {children}
    </article>
  );
}
