/**
 * Money at the edge (docs/decisions.md, Toolkits and payments, "Prices"): the API speaks rupees with at most 2
 * decimals, the domain keeps integer paise (hundredths of a rupee). Free of server-only imports.
 */

/** Paise in a rupee. */
export const PAISE_PER_RUPEE = 100;

/** Highest price in rupees (docs/decisions.md, Toolkits and payments). */
export const MAX_PRICE_RUPEES = 10_000_000;

/** True when `rupees` has at most 2 decimals (checked on the paise value, so 0.1 + 0.2 passes). */
export function hasAtMostTwoDecimals(rupees: number): boolean {
  const paise = rupees * PAISE_PER_RUPEE;
  return Math.abs(paise - Math.round(paise)) < 1e-6;
}

/** Rupees (at most 2 decimals) to integer paise. */
export function toPaise(rupees: number): number {
  return Math.round(rupees * PAISE_PER_RUPEE);
}

/** Integer paise to rupees, e.g. 39920 → 399.2. */
export function toRupees(paise: number): number {
  return paise / PAISE_PER_RUPEE;
}

/** The `Intl` locale amounts are written in: Indian grouping (1,00,000) in English and Hindi alike. */
function localeOf(lang: "en" | "hi"): string {
  return lang === "hi" ? "hi-IN" : "en-IN";
}

/**
 * An amount in the smallest unit of `currency` (ISO 4217; paise for INR, the default) as a person reads it: INR as
 * `formatRupees` writes it, another currency by its code ("USD 5.00"), with that currency's own decimals.
 */
export function formatMinorUnits(minor: number, currency = "INR", lang: "en" | "hi" = "en"): string {
  if (currency === "INR") return formatRupees(toRupees(minor), lang);
  let decimals = 2;
  try {
    decimals =
      new Intl.NumberFormat("en-IN", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
        2;
  } catch {
    // not a currency Intl knows: two decimals
  }
  const amount = (minor / 10 ** decimals).toLocaleString(localeOf(lang), {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return `${currency} ${amount}`;
}

/**
 * The formatters of `formatRupees` by language and whether the amount is whole, made once: `toLocaleString` with
 * options builds a new formatter on every call, which cost about 3 % of the server's CPU under mixed traffic (a list
 * page writes a stipend per listing).
 */
const rupeeFormats = new Map<string, Intl.NumberFormat>();

/** "₹399.20", "₹499" (whole rupees without decimals), "₹1,00,000": Indian digit grouping in both languages. */
export function formatRupees(rupees: number, lang: "en" | "hi" = "en"): string {
  const whole = Number.isInteger(rupees);
  const key = `${lang}${whole ? 0 : 2}`;
  let format = rupeeFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 });
    rupeeFormats.set(key, format);
  }
  return `₹${format.format(rupees)}`;
}
