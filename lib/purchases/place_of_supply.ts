/**
 * The place of supply of a tax invoice (docs/decisions.md, Money operations, "Place of supply"): the buyer's state,
 * found in order from the state named at checkout, the onboarding state, the state of a known onboarding city, and
 * else the seller's state; the seller's state is `SELLER_STATE`, else the one its GSTIN's first two digits name.
 */
import { cityVariants } from "@/lib/internships/cities.ts";
import { type IndianState, indianState, stateOfCode } from "./indian_states.ts";

/**
 * Cities students name, lower case (other names of a city are found through `cityVariants`), → their state. A city
 * name two states share (Aurangabad, Bilaspur) is left out: the student is asked instead.
 */
const CITY_STATES: Record<string, string> = {
  "agartala": "Tripura",
  "agra": "Uttar Pradesh",
  "ahmedabad": "Gujarat",
  "aizawl": "Mizoram",
  "ajmer": "Rajasthan",
  "aligarh": "Uttar Pradesh",
  "ambala": "Haryana",
  "amravati": "Maharashtra",
  "amritsar": "Punjab",
  "anand": "Gujarat",
  "asansol": "West Bengal",
  "belagavi": "Karnataka",
  "bengaluru": "Karnataka",
  "bhopal": "Madhya Pradesh",
  "bhubaneswar": "Odisha",
  "bikaner": "Rajasthan",
  "chandigarh": "Chandigarh",
  "chennai": "Tamil Nadu",
  "chhatrapati sambhajinagar": "Maharashtra",
  "coimbatore": "Tamil Nadu",
  "cuttack": "Odisha",
  "daman": "Dadra and Nagar Haveli and Daman and Diu",
  "dehradun": "Uttarakhand",
  "delhi": "Delhi",
  "dhanbad": "Jharkhand",
  "dharamshala": "Himachal Pradesh",
  "dimapur": "Nagaland",
  "durgapur": "West Bengal",
  "faridabad": "Haryana",
  "gandhinagar": "Gujarat",
  "gangtok": "Sikkim",
  "ghaziabad": "Uttar Pradesh",
  "gorakhpur": "Uttar Pradesh",
  "greater noida": "Uttar Pradesh",
  "gurugram": "Haryana",
  "guwahati": "Assam",
  "gwalior": "Madhya Pradesh",
  "haridwar": "Uttarakhand",
  "howrah": "West Bengal",
  "hubballi": "Karnataka",
  "hyderabad": "Telangana",
  "imphal": "Manipur",
  "indore": "Madhya Pradesh",
  "itanagar": "Arunachal Pradesh",
  "jabalpur": "Madhya Pradesh",
  "jaipur": "Rajasthan",
  "jalandhar": "Punjab",
  "jammu": "Jammu and Kashmir",
  "jamshedpur": "Jharkhand",
  "jodhpur": "Rajasthan",
  "kanpur": "Uttar Pradesh",
  "kavaratti": "Lakshadweep",
  "kharagpur": "West Bengal",
  "kochi": "Kerala",
  "kohima": "Nagaland",
  "kolhapur": "Maharashtra",
  "kolkata": "West Bengal",
  "kollam": "Kerala",
  "kota": "Rajasthan",
  "kozhikode": "Kerala",
  "leh": "Ladakh",
  "lucknow": "Uttar Pradesh",
  "ludhiana": "Punjab",
  "madurai": "Tamil Nadu",
  "mangaluru": "Karnataka",
  "manipal": "Karnataka",
  "margao": "Goa",
  "meerut": "Uttar Pradesh",
  "mohali": "Punjab",
  "mumbai": "Maharashtra",
  "mysuru": "Karnataka",
  "nagpur": "Maharashtra",
  "nashik": "Maharashtra",
  "navi mumbai": "Maharashtra",
  "new delhi": "Delhi",
  "noida": "Uttar Pradesh",
  "panaji": "Goa",
  "patiala": "Punjab",
  "patna": "Bihar",
  "pilani": "Rajasthan",
  "port blair": "Andaman and Nicobar Islands",
  "prayagraj": "Uttar Pradesh",
  "puducherry": "Puducherry",
  "pune": "Maharashtra",
  "raipur": "Chhattisgarh",
  "rajkot": "Gujarat",
  "ranchi": "Jharkhand",
  "roorkee": "Uttarakhand",
  "rourkela": "Odisha",
  "secunderabad": "Telangana",
  "shillong": "Meghalaya",
  "shimla": "Himachal Pradesh",
  "siliguri": "West Bengal",
  "silvassa": "Dadra and Nagar Haveli and Daman and Diu",
  "sonipat": "Haryana",
  "srinagar": "Jammu and Kashmir",
  "surat": "Gujarat",
  "thane": "Maharashtra",
  "thiruvananthapuram": "Kerala",
  "thrissur": "Kerala",
  "tiruchirappalli": "Tamil Nadu",
  "tirupati": "Andhra Pradesh",
  "udaipur": "Rajasthan",
  "ujjain": "Madhya Pradesh",
  "vadodara": "Gujarat",
  "varanasi": "Uttar Pradesh",
  "vellore": "Tamil Nadu",
  "vijayawada": "Andhra Pradesh",
  "visakhapatnam": "Andhra Pradesh",
  "warangal": "Telangana",
};

/**
 * The state a place names: a state itself, or a known city, each alone or as one part of "Pune, Maharashtra" or
 * "Bangalore / India" (a state named wins over a city); null when none is known.
 */
export function stateOfPlace(place: string | null | undefined): IndianState | null {
  if (!place) return null;
  const parts = [place, ...place.split(/[,/(|)]/)].map((part) => part.trim().toLowerCase()).filter(Boolean);
  for (const part of parts) {
    const state = indianState(part);
    if (state) return state;
  }
  for (const part of parts) {
    const city = cityVariants(part.replace(/\s+/g, " ")).map((name) => CITY_STATES[name]).find(Boolean);
    if (city) return indianState(city);
  }
  return null;
}

/** The seller's state (`SELLER_STATE`, else the state of its GSTIN's code), or null when neither says. */
export function sellerStateOf(seller: { state?: string; gstin?: string }): IndianState | null {
  return indianState(seller.state) ?? (seller.gstin ? stateOfCode(seller.gstin.slice(0, 2)) : null);
}

/** What the buyer said about where they are: the state named at checkout and their onboarding location. */
export interface BuyerLocation {
  /** `buyerState` of the checkout (a state's name), when given. */
  checkoutState?: string | null;
  onboarding?: { locationType: string | null; locationValue: string | null } | null;
}

/**
 * The buyer's state as far as they told it (see the module docstring), without the seller's fallback: the checkout's
 * state, else the state their onboarding location names (a state, or a known city, whichever type they chose); null
 * when unknown.
 */
export function buyerStateOf({ checkoutState, onboarding }: BuyerLocation): IndianState | null {
  return indianState(checkoutState) ?? stateOfPlace(onboarding?.locationValue);
}

/** "Maharashtra (27)": a place of supply as a tax invoice shows it. */
export function placeOfSupplyLabel(state: IndianState): string {
  return `${state.name} (${state.code})`;
}
