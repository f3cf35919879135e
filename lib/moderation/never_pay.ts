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
 *
 * A phrase that is negated does not count, so a listing that reassures students ("No registration fee", "We never
 * charge a registration fee", "कोई पंजीकरण शुल्क नहीं") is not held: a negating word ("no", "zero", "never", "not", "n't",
 * "free of") before it in the same clause, with only the words of `NEGATION_SCOPE` between (so "There is no
 * registration fee or training fee" negates both, and "we do not ask you to pay ₹500" the payment), or "नहीं" ("nahi")
 * after it with only the words of `HINDI_AFTER` between ("शुल्क नहीं लिया जाता"; never "नहीं तो", otherwise). A clause
 * ends at sentence punctuation, a comma or a dash, so "No hidden charges, pay ₹500 to join" still matches.
 *
 * When in doubt the phrase counts (a false hold waits for an admin; a missed demand reaches students): a negation is
 * honoured only in a clause with no second negation ("who do not pay … will not be selected", "can't join without a
 * deposit") and none of the words of `CONDITIONS` ("who", "if", "unless", "refund", "पर", "सकते", "वापस", "तो"), which
 * turn "no fee" into "no fee, no place" or "no refund of the fee". "without" and "बिना" never negate: "cannot start
 * without paying the deposit" and "बिना शुल्क के जुड़ नहीं सकते" ask for it.
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

/** Each phrase's pattern between word boundaries of folded text (every occurrence, each with a space either side). */
const MATCHERS = NEVER_PAY_PHRASES.map((phrase) => ({
  phrase,
  regex: new RegExp(`(?<= )(?:${phrase.pattern.normalize("NFKC")})(?= )`, "gu"),
}));

/** The words of `text` (separated by white space) as folded text has them (NFKC, as the phrases' patterns are). */
function wordSet(text: string): ReadonlySet<string> {
  return new Set(text.normalize("NFKC").trim().split(/\s+/));
}

/** Words that negate a phrase after them in the same clause (with `NEGATION_SCOPE` words between). */
const NEGATORS = wordSet("no zero never not");
/** Words before "t" that make "n't" ("don't" folds to "don t"). */
const NOT_CONTRACTED = wordSet(
  "don doesn didn won isn aren wasn weren can couldn shan shouldn wouldn haven hasn hadn mustn needn",
);
/**
 * Negating words that never negate a phrase themselves but, beside another negation in the clause, make it a second
 * one: "can't join without a deposit" demands the deposit.
 */
const OTHER_NEGATORS = wordSet("without cannot nor बिना bina न मत mat नही");
/**
 * Words that make a negated phrase a condition or a refund rather than a reassurance, anywhere in its clause: "who" or
 * "if" (those who do not pay are dropped), "unless", "until", "or else", "otherwise", refunds and returns ("No security
 * deposit is refundable"), and in Hindi "पर" (on not paying), "तो", "सकते" (cannot), "वापस" (back), "अगर" (if).
 */
const CONDITIONS = wordSet(
  `who whoever whom whose if unless until till else otherwise refund refunds refunded refundable returned returnable
   पर तो सकते सकता सकती सकेंगे वापस अगर यदि जब`,
);
/**
 * The words that may stand between a negating word and the phrase it negates: articles and quantifiers, the verbs of
 * asking and paying, who pays, "or"/"and"/"nor" and the words of the phrases themselves (so one negation covers a list
 * of them), amounts. Any other word ends the negation ("No worries: registration fee ₹500" still matches).
 */
const NEGATION_SCOPE = wordSet(
  `a an any the such hidden extra additional other kind kinds type types sort of for from in as or and nor
   is are was be will there we do does did you us to ask asks asked asking charge charges charged charging
   collect collects collected take takes taken require requires required need needs needed demand demands
   pay paying paid upfront applicants candidates interns students anyone anybody money
   registration training processing joining security refundable laptop kit enrolment enrollment onboarding
   certificate certification entry fee fees deposit deposits amount ₹ rs inr rupees
   कोई किसी भी प्रकार का की के और या पंजीकरण शुल्क सुरक्षा जमा राशि प्रशिक्षण रजिस्ट्रेशन ट्रेनिंग फीस
   koi kisi bhi`,
);
/** "नहीं" (or "nahi") after a phrase negates it, with at most three words of `HINDI_AFTER` between. */
const HINDI_NOT = wordSet("नहीं nahi nahin");
/** After "नहीं", the word that makes it "otherwise" ("नहीं तो"), not a negation. */
const OTHERWISE = wordSet("तो to");
/** The words that may stand between a phrase and the "नहीं" after it: verbs of paying and taking, "है", "भी". */
const HINDI_AFTER = wordSet(
  "है हैं था देना देने देनी देते लिया ली लेते लेगा लेगी जाता जाती जाएगा जाएगी लगता लगती लगेगा लगेगी होगा होगी भी कोई hai lena dena",
);
/** Punctuation that ends a clause: the words on either side are not negated across it. */
const CLAUSE_END = /[.,;:!?।॥|\n\u2013\u2014]/u;

/** A folded text's words, each with whether a clause ends before it (from the text's punctuation). */
interface Words {
  words: string[];
  clauseStart: boolean[];
}

/** `text` as `foldForMatching` splits it into words, with the clause ends between them. */
function wordsOf(text: string): Words {
  const prepared = text.normalize("NFKC").toLowerCase().replace(FORMAT, "").replaceAll("₹", " ₹ ");
  const words: string[] = [];
  const clauseStart: boolean[] = [];
  let pendingEnd = false;
  for (const [run] of prepared.matchAll(/[\p{L}\p{M}\p{N}₹]+|[^\p{L}\p{M}\p{N}₹]+/gu)) {
    if (/^[\p{L}\p{M}\p{N}₹]/u.test(run)) {
      words.push(run);
      clauseStart.push(pendingEnd);
      pendingEnd = false;
    } else if (CLAUSE_END.test(run)) pendingEnd = true;
  }
  return { words, clauseStart };
}

/** Whether word `i` of `words` negates: "no", "not", "n't", "नहीं", "free of" (at "of") and the like. */
function isNegation(words: string[], i: number): boolean {
  const word = words[i];
  return NEGATORS.has(word) || HINDI_NOT.has(word) || OTHER_NEGATORS.has(word) ||
    (word === "t" && NOT_CONTRACTED.has(words[i - 1])) || (word === "of" && words[i - 1] === "free");
}

/**
 * Whether the clause holding words `start` to `end` (exclusive) leaves a negation in doubt: it has more than one
 * negating word, or a word of `CONDITIONS`.
 */
function clauseInDoubt({ words, clauseStart }: Words, start: number, end: number): boolean {
  let first = start;
  while (first > 0 && !clauseStart[first]) first--;
  let last = end;
  while (last < words.length && !clauseStart[last]) last++;
  let negations = 0;
  for (let i = first; i < last; i++) {
    if (CONDITIONS.has(words[i])) return true;
    if (isNegation(words, i)) negations++;
  }
  return negations > 1;
}

/** Whether the phrase at words `start` to `end` (exclusive) of `text` is negated (see the module's docstring). */
function isNegated(text: Words, start: number, end: number): boolean {
  return negationNear(text, start, end) && !clauseInDoubt(text, start, end);
}

/** Whether a negating word stands before the phrase at `start` to `end`, or "नहीं" after it, in its scope. */
function negationNear({ words, clauseStart }: Words, start: number, end: number): boolean {
  for (let i = start - 1; i >= 0 && !clauseStart[i + 1]; i--) {
    const word = words[i];
    if (NEGATORS.has(word) || (word === "t" && NOT_CONTRACTED.has(words[i - 1]))) return true;
    if (word === "of" && words[i - 1] === "free") return true;
    if (!NEGATION_SCOPE.has(word) && !/^\d+$/.test(word)) break;
  }
  for (let i = end; i < words.length && i < end + 4 && !clauseStart[i]; i++) {
    if (HINDI_NOT.has(words[i])) return clauseStart[i + 1] || !OTHERWISE.has(words[i + 1]);
    if (!HINDI_AFTER.has(words[i]) && !/^\d+$/.test(words[i]) && words[i] !== "₹") break;
  }
  return false;
}

/** Whether `regex` finds an occurrence in `folded` (the text `words` splits) that is not negated. */
function assertedIn(regex: RegExp, folded: string, words: Words): boolean {
  for (const match of folded.matchAll(regex)) {
    const start = folded.slice(0, match.index).split(" ").length - 2;
    const end = start + match[0].split(" ").length;
    if (!isNegated(words, start, end)) return true;
  }
  return false;
}

/**
 * The labels of the phrases of `NEVER_PAY_PHRASES` that `texts` hold (any of them) and do not negate, in list order;
 * empty when none.
 */
export function moneyPhrasesIn(...texts: (string | null | undefined)[]): string[] {
  const read = texts.filter((text): text is string => Boolean(text)).map((text) => ({
    folded: foldForMatching(text),
    words: wordsOf(text),
  }));
  return MATCHERS.filter(({ regex }) => read.some(({ folded, words }) => assertedIn(regex, folded, words)))
    .map(({ phrase }) => phrase.label);
}
