/**
 * The verified badge (docs/decisions.md, Trust, "Organizations"): a green seal and "Verified" for a listing whose
 * organization proved its domain or that an admin checked, explained to screen readers and on hover. Browser-safe: the
 * cards of the filter island use it too, so the badge takes its words as props.
 */
import { useT } from "@/lib/i18n/context.ts";

/**
 * The seal and `word` ("Verified" in the page's language); `label` says what was verified (read by screen readers and
 * shown on hover).
 */
export function VerifiedBadge({ word, label }: { word: string; label: string }) {
  return (
    <span class="inline-flex items-center gap-1 text-sm font-medium text-green-800" title={label}>
      <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-current">
        <path d="M10 1.5 12.4 3l2.8-.2.9 2.7 2.3 1.6-.9 2.7.9 2.7-2.3 1.6-.9 2.7-2.8-.2L10 18.5 7.6 17l-2.8.2-.9-2.7-2.3-1.6.9-2.7-.9-2.7 2.3-1.6.9-2.7 2.8.2Zm-1 11.3 5-5-1.1-1.1L9 10.6 7.1 8.7 6 9.8Z" />
      </svg>
      {word}
      <span class="sr-only">{`: ${label}`}</span>
    </span>
  );
}

/** An organization's badge on its page: "Verified", or a grey "Not verified". */
export function OrganizationBadge({ organization }: { organization: { isVerified: boolean } }) {
  const t = useT();
  return organization.isVerified
    ? <VerifiedBadge word={t("trust.verified.word")} label={t("trust.verified.thisOrganization")} />
    : (
      <span class="inline-flex items-center rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-800 ring-1 ring-inset ring-slate-300">
        {t("trust.verified.not")}
      </span>
    );
}
