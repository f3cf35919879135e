/**
 * Other names of Indian cities (docs/decisions.md, Internships): a listing may say "Bengaluru"
 * and a student search for "bangalore", or the other way round. The location filter and the
 * search words match a city under any of its names. Names are lower case; each group lists the
 * names of one place.
 */
const CITY_NAMES: readonly (readonly string[])[] = [
  ["bengaluru", "bangalore"],
  ["mumbai", "bombay"],
  ["gurugram", "gurgaon"],
  ["chennai", "madras"],
  ["kolkata", "calcutta"],
  ["pune", "poona"],
  ["thiruvananthapuram", "trivandrum"],
  ["kochi", "cochin"],
  ["mysuru", "mysore"],
  ["mangaluru", "mangalore"],
  ["vadodara", "baroda"],
  ["puducherry", "pondicherry"],
  ["prayagraj", "allahabad"],
  ["varanasi", "banaras", "benares"],
  ["kozhikode", "calicut"],
  ["belagavi", "belgaum"],
  ["hubballi", "hubli"],
  ["visakhapatnam", "vizag"],
  ["odisha", "orissa"],
];

/**
 * `text` (lower case) and the same text with a city name in it replaced by each other name of
 * that city, e.g. "bangalore, karnataka" → also "bengaluru, karnataka". Only whole names are
 * replaced ("pune" in "puneet" is not a city).
 */
export function cityVariants(text: string): string[] {
  const variants = [text];
  for (const names of CITY_NAMES) {
    for (const name of names) {
      const at = new RegExp(`(^|[^a-z])${name}($|[^a-z])`).exec(text);
      if (!at) continue;
      const start = at.index + at[1].length;
      for (const other of names) {
        if (other !== name) variants.push(text.slice(0, start) + other + text.slice(start + name.length));
      }
    }
  }
  return variants;
}
