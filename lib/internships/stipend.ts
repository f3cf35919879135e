/**
 * Browser-safe: a stipend as people read it, in Indian digit grouping and whole rupees
 * (`25000` → `"₹25,000 / month"`, none → `"Unpaid"`), for the cards, the internship page and the
 * RSS feed alike.
 */

const rupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });

/** A monthly stipend in rupees: `"₹25,000 / month"`, or `"Unpaid"` for 0 or null. */
export function formatStipend(stipend: number | null | undefined): string {
  return stipend ? `${rupees.format(stipend)} / month` : "Unpaid";
}
