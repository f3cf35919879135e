/**
 * Browser-safe: refusals that quote another service (docs/decisions.md, Languages, "Refusals on pages"). Such a
 * refusal is listed in `REFUSALS` as a template ending in `: {detail}` ("The gateway refused the refund: {detail}");
 * the API's sentence has the service's own words in place of `{detail}`, and a page or island words it with the
 * template's message and those words, as they came, for `detail`.
 */

/** The placeholder of another service's words in a listed refusal. */
export const REFUSAL_DETAIL = "{detail}";

/**
 * The template `sentence` would be made from if it quotes another service: its start before the first ": " with
 * `REFUSAL_DETAIL` after it, and the rest as `detail` (less a full stop at its end: the message has its own); null
 * for a sentence without ": ". Whether that template is listed is the caller's lookup.
 */
export function quotedRefusal(sentence: string): { template: string; detail: string } | null {
  const cut = sentence.indexOf(": ");
  if (cut <= 0) return null;
  return {
    template: `${sentence.slice(0, cut)}: ${REFUSAL_DETAIL}`,
    detail: sentence.slice(cut + 2).replace(/\.$/, ""),
  };
}
