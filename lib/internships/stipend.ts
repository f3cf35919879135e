/**
 * Browser-safe: a stipend as people read it (docs/decisions.md, Trust, "Trust filters"), in Indian digit grouping and
 * whole rupees (`8000` → `"₹8,000 a month"`), `"Unpaid"` for 0 and `"Stipend not stated"` for none: `formatStipend`
 * in English for the RSS feed, `stipendText` in the reader's language for the cards, the internship page and the alert
 * e-mails.
 */

import type { Translate } from "@/lib/i18n/translator.ts";

/** Made on first use: a first `Intl` formatter costs about 20 ms of CPU (ICU's data), which importing should not. */
let rupees: Intl.NumberFormat | undefined;

/** A monthly stipend in rupees: `"₹8,000 a month"`, `"Unpaid"` for 0, `"Stipend not stated"` for null. */
export function formatStipend(stipend: number | null | undefined): string {
  if (stipend === null || stipend === undefined) return "Stipend not stated";
  rupees ??= new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
  return stipend > 0 ? `${rupees.format(stipend)} a month` : "Unpaid";
}

/** `formatStipend` in `t`'s language: "₹8,000 हर महीने", "बिना स्टाइपेंड", "स्टाइपेंड नहीं बताया गया". */
export function stipendText(t: Translate, stipend: number | null | undefined): string {
  if (stipend === null || stipend === undefined) return t("internships.stipend.none");
  return stipend > 0
    ? t("internships.stipend.monthly", { amount: t.rupees(stipend) })
    : t("internships.stipend.unpaid");
}
