/**
 * The verified badges (docs/decisions.md, Trust, "Organizations"): a green seal and "Verified" for a listing whose
 * organization proved its domain, a blue tick and "Checked" for one an admin checked, explained to screen readers and
 * on hover; a grey badge for what is not verified. Browser-safe: the
 * cards of the filter island use it too, so the badge takes its words as props.
 */
import { useT } from "@/lib/i18n/context.ts";
import type { VerifiedBy } from "@/lib/browser/organization_format.ts";

/** A seal with a tick: an organization that proved its domain. */
const SEAL =
  "M10 1.5 12.4 3l2.8-.2.9 2.7 2.3 1.6-.9 2.7.9 2.7-2.3 1.6-.9 2.7-2.8-.2L10 18.5 7.6 17l-2.8.2-.9-2.7-2.3-1.6.9-2.7-.9-2.7 2.3-1.6.9-2.7 2.8.2Zm-1 11.3 5-5-1.1-1.1L9 10.6 7.1 8.7 6 9.8Z";
/** A tick in a circle: one listing an admin checked. */
const TICK = "M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-1 10.8-3-3 1.1-1.1L9 10.6l3.9-3.9L14 7.8Z";

/**
 * The badge of a verified listing: `by` "organization" is a green seal and `word` ("Verified"), a proof of the
 * organization's domain; `by` "listing" is a blue tick and `word` ("Checked"), an admin's check of this one listing,
 * so the two never look alike. `label` says what was verified (read by screen readers and shown on hover).
 */
export function VerifiedBadge({ word, label, by = "organization" }: { word: string; label: string; by?: VerifiedBy }) {
  return (
    <span
      class={`inline-flex items-center gap-1 text-sm font-medium ${
        by === "organization" ? "text-green-800" : "text-sky-800"
      }`}
      title={label}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-current">
        <path d={by === "organization" ? SEAL : TICK} />
      </svg>
      {word}
      <span class="sr-only">{`: ${label}`}</span>
    </span>
  );
}

/** A grey badge: `word` ("Not verified", "Organization not verified"). */
export function UnverifiedBadge({ word }: { word: string }) {
  return (
    <span class="inline-flex items-center rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-800 ring-1 ring-inset ring-slate-300">
      {word}
    </span>
  );
}

/** An organization's badge on its page: "Verified", or a grey "Not verified". */
export function OrganizationBadge({ organization }: { organization: { isVerified: boolean } }) {
  const t = useT();
  return organization.isVerified
    ? <VerifiedBadge word={t("trust.verified.word")} label={t("trust.verified.thisOrganization")} />
    : <UnverifiedBadge word={t("trust.verified.not")} />;
}
