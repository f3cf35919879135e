/**
 * The never-pay rule's phrase list (docs/decisions.md, Trust, "The never-pay rule"): the words of a listing that asks
 * applicants for money. A real employer never charges an intern to apply, join, train or hold a place, so a listing
 * any of whose texts a student reads (`listingTexts`) holds one of these is held for an admin's review. Browser-safe
 * (no imports): the admin review queue's island words the phrases a listing was held for.
 *
 * Matching is case-insensitive and ignores extra spaces and punctuation between words: the text is folded with NFKC
 * (full-width and other compatibility forms become plain letters), lower-cased, invisible format characters are
 * removed, and every run of characters that is neither a letter, a mark (Devanagari vowel signs are marks), a digit
 * nor the rupee sign becomes one space. A phrase then matches as whole words of that text, so "Registration-Fee",
 * "registration   fees" and "REGISTRATION, FEE" all match, while "preregistration feedback" does not.
 */

/** One entry of the list: what people read, and its pattern over the folded text (words joined by one space). */
export interface NeverPayPhrase {
  /** The phrase as the admin queue and the owner's notice name it. */
  label: string;
  /** A regular expression source over folded text; it is matched between word boundaries. */
  pattern: string;
}

/** A fee word in English: "fee" or "fees", "charge" or "charges". */
const FEE = "(?:fees?|charges?)";
/**
 * How a label ends whose phrase holds an amount ("pay ₹ (an amount)"); a page writes it in its reader's language
 * (`lib/browser/moderation_format.ts`).
 */
export const AMOUNT_SUFFIX = " (an amount)";
/** An amount after a currency: digits, possibly grouped ("1 500" once the comma is folded to a space). */
const AMOUNT = "\\d[\\d ]*";
/**
 * "pay" as the applicant's payment: not after words that make it the employer's ("we pay ₹10,000 a month", "our pay:
 * Rs 8,000") or a noun ("your pay", "the monthly pay").
 */
const APPLICANT_PAYS = "(?<! (?:we|we will|we ll|we shall|our|your|the|monthly|stipend|salary) )pay(?: only| just)?";

/**
 * The phrases: the forms fake internships use to ask for money, in English and Hindi (Devanagari). Each is documented
 * by its label; the patterns allow plurals and the common variants of one word.
 */
export const NEVER_PAY_PHRASES: readonly NeverPayPhrase[] = [
  { label: "registration fee", pattern: "registration fees?" },
  { label: "registration charges", pattern: "registration (?:charges?|amount)" },
  { label: "security deposit", pattern: "security deposits?" },
  { label: "refundable deposit", pattern: "refundable (?:security )?deposits?" },
  { label: "training fee", pattern: `training ${FEE}` },
  { label: "processing fee", pattern: `processing ${FEE}` },
  { label: "joining fee", pattern: `joining ${FEE}` },
  { label: "laptop deposit", pattern: "laptop deposits?" },
  { label: "kit charges", pattern: `kit ${FEE}` },
  { label: "enrolment fee", pattern: `enrol?ment ${FEE}` },
  { label: "onboarding fee", pattern: `onboarding ${FEE}` },
  { label: "certificate fee", pattern: `certificat(?:e|ion) ${FEE}` },
  { label: "entry fee", pattern: `entry ${FEE}` },
  { label: `pay ₹${AMOUNT_SUFFIX}`, pattern: `${APPLICANT_PAYS} ₹ ?${AMOUNT}` },
  { label: `pay Rs${AMOUNT_SUFFIX}`, pattern: `${APPLICANT_PAYS} (?:rs|inr|rupees) ?${AMOUNT}` },
  { label: `a fee of ₹/Rs${AMOUNT_SUFFIX}`, pattern: `${FEE} of (?:₹|rs|inr|rupees) ?${AMOUNT}` },
  { label: "पंजीकरण शुल्क", pattern: "पंजीकरण शुल्क" },
  { label: "सुरक्षा जमा", pattern: "सुरक्षा (?:जमा|राशि)" },
  { label: "प्रशिक्षण शुल्क", pattern: "प्रशिक्षण शुल्क" },
  { label: "रजिस्ट्रेशन फीस", pattern: "रजिस्ट्रेशन (?:फीस|शुल्क)" },
  { label: "ट्रेनिंग फीस", pattern: "ट्रेनिंग (?:फीस|शुल्क)" },
];

/** The reason a listing held by this rule carries (`moderation.reasons`). */
export const ASKS_TO_PAY = "Asks applicants to pay";

/** Letters, marks, digits and the rupee sign are kept; everything else separates words. */
const SEPARATORS = /[^\p{L}\p{M}\p{N}₹]+/gu;
/** Invisible format characters (zero-width joiners, soft hyphens, bidi marks): dropped, so "fe\u00ADe" is "fee". */
const FORMAT = /\p{Cf}/gu;

/**
 * `text` folded for matching: NFKC, lower case, format characters removed, every other run of non-word characters one
 * space, the rupee sign a word of its own ("₹500" → "₹ 500"), with a space at each end.
 */
export function foldForMatching(text: string): string {
  const folded = text.normalize("NFKC").toLowerCase().replace(FORMAT, "").replaceAll("₹", " ₹ ")
    .replace(SEPARATORS, " ").trim().replace(/ +/g, " ");
  return ` ${folded} `;
}

/** Each phrase's pattern between word boundaries of folded text (a space on each side). */
const MATCHERS = NEVER_PAY_PHRASES.map((phrase) => ({
  phrase,
  regex: new RegExp(` (?:${phrase.pattern.normalize("NFKC")}) `, "u"),
}));

/** The labels of the phrases of `NEVER_PAY_PHRASES` that `texts` hold (any of them), in list order; empty when none. */
export function moneyPhrasesIn(...texts: (string | null | undefined)[]): string[] {
  const folded = texts.filter((text): text is string => Boolean(text)).map(foldForMatching);
  return MATCHERS.filter(({ regex }) => folded.some((text) => regex.test(text))).map(({ phrase }) => phrase.label);
}
