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

/** Each city's names with the pattern that finds one as a whole word. */
const PATTERNS = CITY_NAMES.map((names) =>
  names.map((name) => [name, new RegExp(`(^|[^a-z])${name}($|[^a-z])`)] as const)
);

/** Variants already made, by text: filters ask for the same few texts over and over. At most `KEPT_TEXTS`. */
const made = new Map<string, readonly string[]>();
const KEPT_TEXTS = 1024;

/**
 * `text` (lower case) and the same text with a city name in it replaced by each other name of
 * that city, e.g. "bangalore, karnataka" → also "bengaluru, karnataka". Only whole names are
 * replaced ("pune" in "puneet" is not a city). Kept per text (not to be changed).
 */
export function cityVariants(text: string): readonly string[] {
  let variants = made.get(text);
  if (variants) return variants;
  const found = [text];
  for (const [i, names] of PATTERNS.entries()) {
    for (const [name, pattern] of names) {
      const at = pattern.exec(text);
      if (!at) continue;
      const start = at.index + at[1].length;
      for (const other of CITY_NAMES[i]) {
        if (other !== name) found.push(text.slice(0, start) + other + text.slice(start + name.length));
      }
    }
  }
  if (made.size >= KEPT_TEXTS) made.delete(made.keys().next().value!);
  made.set(text, variants = Object.freeze(found));
  return variants;
}
