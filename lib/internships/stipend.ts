/**
 * Browser-safe: a stipend as people read it (docs/decisions.md, Trust, "Trust filters"), in Indian digit grouping and
 * whole rupees (`8000` → `"₹8,000 a month"`), `"Unpaid"` for 0 and `"Stipend not stated"` for none, for the cards, the
 * internship page, the RSS feed and the alert e-mails alike.
 */

const rupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });

/** A monthly stipend in rupees: `"₹8,000 a month"`, `"Unpaid"` for 0, `"Stipend not stated"` for null. */
export function formatStipend(stipend: number | null | undefined): string {
  if (stipend === null || stipend === undefined) return "Stipend not stated";
  return stipend > 0 ? `${rupees.format(stipend)} a month` : "Unpaid";
}
