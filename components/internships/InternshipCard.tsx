/**
 * One internship in a result list: title (linking to its page), organization (linking to its page), type and timing
 * badges, stipend in ₹, location, deadline with the days left, the verified badge and tags.
 * Rendered by the server and by the filter island alike: in the page's language on the server, in English inside the
 * filter island until it has its messages (`useOptionalT`).
 */
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { ComponentChildren } from "preact";
import SaveButton from "@/islands/SaveButton.tsx";
import {
  deadlineStatus,
  describeDeadline,
  TIMING_KEYS,
  TIMING_LABELS,
  TYPE_KEYS,
  TYPE_LABELS,
} from "@/lib/browser/internship_format.ts";
import { formatStipend, stipendText } from "@/lib/internships/stipend.ts";
import { useOptionalT } from "@/lib/i18n/context.ts";
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

/** The deadline line: date and days left, or "Closed". */
export function Deadline({ deadline }: { deadline: string | null }) {
  const t = useOptionalT();
  const text = describeDeadline(deadline);
  if (!text) return <span>{t ? t("internships.deadline.none") : "No deadline"}</span>;
  const date = <time datetime={text.iso}>{t ? t.date(text.iso) : text.date}</time>;
  return (
    <span>
      {t ? t.rich("internships.deadline.applyBy", { date }) : <>Apply by {date}</>}{" "}
      <span class={text.closed ? "font-medium text-red-700" : "text-slate-700"}>
        ({t ? deadlineStatus(t, text.days) : text.status})
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
  const t = useOptionalT();
  const { type, timing } = internship;
  return (
    <div class="flex flex-wrap gap-2">
      {internship.isClosed && <Badge tone="red">{t ? t("internships.deadline.closed") : "Closed"}</Badge>}
      {type && <Badge tone="indigo">{t ? t(TYPE_KEYS[type]) : TYPE_LABELS[type]}</Badge>}
      {timing && <Badge>{t ? t(TIMING_KEYS[timing]) : TIMING_LABELS[timing]}</Badge>}
      {showState && !internship.isActive && (
        <Badge tone="amber">{t ? t("internships.badge.inactive") : "Inactive"}</Badge>
      )}
      {showState && internship.deletedAt && <Badge tone="red">{t ? t("internships.badge.deleted") : "Deleted"}</Badge>}
      {showState && internship.moderation.status === "held" && (
        <Badge tone="amber">{t ? t("internships.badge.held") : "Held for review"}</Badge>
      )}
      {showState && internship.moderation.status === "rejected" && (
        <Badge tone="red">{t ? t("internships.badge.rejected") : "Not approved"}</Badge>
      )}
    </div>
  );
}

/** The tags of an internship as a list. */
export function TagList({ tags }: { tags: string[] }) {
  const t = useOptionalT();
  if (tags.length === 0) return null;
  return (
    <ul aria-label={t ? t("internships.card.tags") : "Tags"} class="flex flex-wrap gap-1.5">
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
  const t = useOptionalT();
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
              word={t ? t("trust.verified.word") : "Verified"}
              label={t
                ? t(byOrganization ? "trust.verified.organization" : "trust.verified.listing")
                : byOrganization
                ? "the organization is verified"
                : "an admin checked this listing"}
            />
          )}
          {signedIn !== undefined && (
            <SaveButton
              kind="internships"
              id={internship.id}
              title={internship.title}
              signedIn={signedIn}
            />
          )}
        </div>
      </div>
      <div class="mt-3">
        <InternshipBadges internship={internship} showState={showState} />
      </div>
      <dl class="mt-3 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-3">
        <div>
          <dt class="sr-only">{t ? t("internships.card.stipend") : "Stipend"}</dt>
          <dd class="font-medium text-slate-900">
            {t ? stipendText(t, internship.stipend) : formatStipend(internship.stipend)}
          </dd>
        </div>
        <div>
          <dt class="sr-only">{t ? t("internships.card.location") : "Location"}</dt>
          <dd>{internship.location ?? (t ? t("internships.card.noLocation") : "Location not given")}</dd>
        </div>
        <div>
          <dt class="sr-only">{t ? t("internships.card.deadline") : "Deadline"}</dt>
          <dd>
            <Deadline deadline={internship.deadline} />
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
