/**
 * India's states and union territories with their GST state codes (the first two digits of a GSTIN), for the place of
 * supply of a tax invoice (docs/decisions.md, Money operations, "Place of supply"). Browser-safe: the checkout's state
 * field lists `INDIAN_STATES`.
 */

/** A state or union territory: its name as the GST portal writes it and its two-digit GST state code. */
export interface IndianState {
  name: string;
  code: string;
}

/** Every state and union territory, by name (Dadra and Nagar Haveli and Daman and Diu are one since 2020: 26). */
export const INDIAN_STATES: readonly IndianState[] = [
  { name: "Andaman and Nicobar Islands", code: "35" },
  { name: "Andhra Pradesh", code: "37" },
  { name: "Arunachal Pradesh", code: "12" },
  { name: "Assam", code: "18" },
  { name: "Bihar", code: "10" },
  { name: "Chandigarh", code: "04" },
  { name: "Chhattisgarh", code: "22" },
  { name: "Dadra and Nagar Haveli and Daman and Diu", code: "26" },
  { name: "Delhi", code: "07" },
  { name: "Goa", code: "30" },
  { name: "Gujarat", code: "24" },
  { name: "Haryana", code: "06" },
  { name: "Himachal Pradesh", code: "02" },
  { name: "Jammu and Kashmir", code: "01" },
  { name: "Jharkhand", code: "20" },
  { name: "Karnataka", code: "29" },
  { name: "Kerala", code: "32" },
  { name: "Ladakh", code: "38" },
  { name: "Lakshadweep", code: "31" },
  { name: "Madhya Pradesh", code: "23" },
  { name: "Maharashtra", code: "27" },
  { name: "Manipur", code: "14" },
  { name: "Meghalaya", code: "17" },
  { name: "Mizoram", code: "15" },
  { name: "Nagaland", code: "13" },
  { name: "Odisha", code: "21" },
  { name: "Puducherry", code: "34" },
  { name: "Punjab", code: "03" },
  { name: "Rajasthan", code: "08" },
  { name: "Sikkim", code: "11" },
  { name: "Tamil Nadu", code: "33" },
  { name: "Telangana", code: "36" },
  { name: "Tripura", code: "16" },
  { name: "Uttar Pradesh", code: "09" },
  { name: "Uttarakhand", code: "05" },
  { name: "West Bengal", code: "19" },
];

/** What a state field that names no state or union territory says. */
export const BUYER_STATE_MESSAGE = "Choose your state or union territory.";

/** Other names people write for a state (normalized as `keyOf` does) → its name. */
const OTHER_NAMES: Record<string, string> = {
  "andaman and nicobar": "Andaman and Nicobar Islands",
  "dadra and nagar haveli": "Dadra and Nagar Haveli and Daman and Diu",
  "daman and diu": "Dadra and Nagar Haveli and Daman and Diu",
  "nct of delhi": "Delhi",
  "national capital territory of delhi": "Delhi",
  "new delhi": "Delhi",
  "orissa": "Odisha",
  "pondicherry": "Puducherry",
  "uttaranchal": "Uttarakhand",
  "j and k": "Jammu and Kashmir",
};

/** `text` lower case, `&` as "and", anything but letters one space: "Jammu & Kashmir" → "jammu and kashmir". */
function keyOf(text: string): string {
  return text.toLowerCase().replace(/&/g, " and ").replace(/[^a-z]+/g, " ").trim();
}

const BY_KEY = new Map<string, IndianState>([
  ...INDIAN_STATES.map((state) => [keyOf(state.name), state] as const),
  ...Object.entries(OTHER_NAMES).map(([other, name]) => [other, INDIAN_STATES.find((s) => s.name === name)!] as const),
]);

/** The state or union territory `text` names (any case, `&` for "and", an older name), or null. */
export function indianState(text: string | null | undefined): IndianState | null {
  return text ? BY_KEY.get(keyOf(text)) ?? null : null;
}

/** The state whose GST state code `code` is ("27" → Maharashtra), or null. */
export function stateOfCode(code: string): IndianState | null {
  return INDIAN_STATES.find((state) => state.code === code) ?? null;
}
