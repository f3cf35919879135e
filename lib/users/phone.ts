/**
 * Indian mobile numbers as people type them (docs/decisions.md, Profile and onboarding, "Contact numbers"): the profile
 * form accepts "+91 98765 43210", "098765 43210", "98765-43210" or "(987) 654-3210" and sends the 10 digits the API
 * stores. Browser-safe: the profile island and the page's plain form post both use it.
 */

/** Spaces, hyphens, dots and brackets people put between the digits of a phone number. */
const SEPARATORS = /[\s\-.()]/g;

/**
 * The 10-digit national number in `text`: separators removed, then a leading `+91`, `0091`, `91` (before 10 more
 * digits) or trunk `0` dropped. Text that does not reduce to 10 digits comes back trimmed, unchanged, so the API's
 * rule (exactly 10 digits) refuses it with its sentence; `""` stays `""` (it clears the field).
 */
export function nationalNumber(text: string): string {
  const compact = text.replace(SEPARATORS, "");
  const match = /^(?:\+91|0091|91|0)?(\d{10})$/.exec(compact);
  return match ? match[1] : text.trim();
}
