/**
 * The never-pay rule's phrase list (docs/decisions.md, Trust, "The never-pay rule"): the words of a listing that asks
 * applicants for money. A real employer never charges an intern to apply, join, train or hold a place, so a listing
 * any of whose texts a student reads (`listingTexts`) holds one of these is held for an admin's review. Browser-safe
 * (no imports): the admin review queue's island words the phrases a listing was held for.
 *
 * Matching is case-insensitive and ignores extra spaces and punctuation between words: the text is folded with NFKC
 * (full-width and other compatibility forms become plain letters), Cyrillic and Greek letters shaped like Latin ones
 * are read as those ("rеgistration" with a Cyrillic "е"), it is lower-cased, invisible format characters and the
 * Devanagari nukta are removed, and every run of characters that is neither a letter, a mark (Devanagari vowel signs
 * are marks), a digit nor the rupee sign becomes one space. A phrase then matches as whole words of that text, so
 * "Registration-Fee", "registration   fees" and "REGISTRATION, FEE" all match, while "preregistration feedback" does
 * not; a word spelt out letter by letter is read as the word ("f e e", "F.E.E."). An amount is digits of any script
 * ("₹५००") or numbers in words ("₹ five hundred", "₹ पाँच सौ").
 *
 * A phrase that is negated does not count, so a listing that reassures students ("No registration fee", "We never
 * charge a registration fee", "कोई पंजीकरण शुल्क नहीं") is not held: a negating word ("no", "zero", "never", "not", "n't",
 * "free of") before it in the same clause, with only the words of `NEGATION_SCOPE` between ("we do not ask you to pay
 * ₹500"), or "नहीं" ("nahi") after it with only the words of `HINDI_AFTER` between ("शुल्क नहीं लिया जाता"; never "नहीं
 * तो", otherwise). One negation covers a list of phrases joined by "or" ("There is no registration fee or training
 * fee", "कोई पंजीकरण शुल्क या प्रशिक्षण शुल्क नहीं"), and no other phrase: "No registration fee, you pay a training fee"
 * asks for the second. A clause ends at sentence punctuation, a comma, a dash or a conjunction ("and", "but", "और",
 * "लेकिन"), so "No hidden charges, pay ₹500 to join" and "No registration fee and you pay a training fee of ₹5000" still
 * match; a conjunction between two words naming what a fee is for joins a list ("No registration and training fee").
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
/** A fee word in Hindi: "शुल्क", "फीस" ("फ़ीस" once the nukta is folded away), "चार्ज". */
const HINDI_FEE = "(?:शुल्क|फीस|चार्ज)";
/** A currency before an amount: the rupee sign, "Rs", "INR" or "rupees". */
const CURRENCY = "(?:₹|rs|inr|rupees)";
/**
 * How a label ends whose phrase holds an amount ("pay ₹ (an amount)"); a page writes it in its reader's language
 * (`lib/browser/moderation_format.ts`).
 */
export const AMOUNT_SUFFIX = " (an amount)";
/** A number in words, in English or Hindi ("five", "hundred", "पाँच", "हजार" once the nukta is folded away). */
const NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|" +
  "fifty|sixty|seventy|eighty|ninety|hundred|thousand|lakhs?|एक|दो|तीन|चार|पाँच|पांच|छह|सात|आठ|नौ|दस|बीस|पचास|सौ|हजार|लाख)";
/**
 * An amount: digits of any script ("500", "५००"), possibly grouped ("1 500" once the comma is folded to a space) and
 * followed by "hundred", "thousand" or "lakh" ("5 thousand"), or numbers in words ("five hundred", "पाँच सौ"), all of
 * them (a shorter amount cannot leave a word out).
 */
const AMOUNT = `(?:\\p{Nd}[\\p{Nd} ]*(?:hundred|thousand|lakhs?|सौ|हजार|लाख)?|` +
  `${NUMBER_WORD}(?: ${NUMBER_WORD})*(?! ${NUMBER_WORD} ))`;
/**
 * "pay" as the applicant's payment: not after words that make it the employer's ("we pay ₹10,000 a month", "our pay:
 * Rs 8,000") or a noun ("your pay", "the monthly pay").
 */
const APPLICANT_PAYS = "(?<! (?:we|we will|we ll|we shall|our|your|the|monthly|stipend|salary) )pay(?: only| just)?";
/**
 * Not the employer's money: "we deposit ₹8,000 every month", "stipend payment of ₹5,000", "monthly payment of ₹8,000"
 * are what the intern is paid.
 */
const NOT_EMPLOYERS = "(?<! (?:we|will|ll|shall|our|your|monthly|stipend|salary) )";
/**
 * Money the intern receives, before "payment", "deposit" or "send": after a verb of receiving ("you will receive a
 * payment of ₹5,000", "get the first payment of") or a word naming what is paid out ("the first payment of ₹8,000",
 * "Prize money: payment of ₹10,000", "Travel allowance: deposit of ₹3,000").
 */
const RECEIVED_BEFORE =
  "(?<! (?:receive[sd]?|receiving|get|gets|got|getting|earn|earns|earned) (?:a |an |the |your )?" +
  "(?:\\p{L}+ )?)(?<! (?:first|second|final|last|weekly|prize|money|allowance|bonus|incentive|reward|reimbursement) )";
/**
 * Money the intern receives, after the amount of "payment", "deposit" or "send" (within four words): it is
 * "credited", goes "to the winner", "to you", is a "stipend" or comes "every month", or the sentence says "never" to it
 * (a warning: "Send ₹500? Never."). The amount ends at a non-digit, so a shorter amount cannot dodge the look.
 */
const RECEIVED_AFTER = "(?!\\p{Nd})(?! ?(?:\\p{L}+ ){0,4}?(?:credited|winners?|stipend|salary|every month|a month|" +
  "per month|to you|to your|to interns?|never))";

/**
 * Not money named before its amount as a fee (a phrase of its own) or as what the intern is paid: "शुल्क ₹500 देना
 * होगा" is named once, "स्टाइपेंड ₹5000 जमा करेंगे" and "stipend ₹5000 dena hai" are the employer's.
 */
const NOT_PAID_OUT = `(?<! (?:${FEE}|${HINDI_FEE}|deposits?|जमा|राशि|stipend|salary|स्टाइपेंड|वेतन|वजीफा) )`;

/**
 * Not after a word that makes a phrase of its own ("registration fee ₹500" is named "registration fee", not twice).
 */
const NOT_NAMED = "(?<! (?:registration|training|processing|joining|kit|enrol?ment|enrollment|onboarding|" +
  "certificat(?:e|ion)|entry|security|refundable|laptop|caution|पंजीकरण|प्रशिक्षण|रजिस्ट्रेशन|ट्रेनिंग) )";

/**
 * The phrases: the forms fake internships use to ask for money, in English and Hindi (Devanagari). Each is documented
 * by its label; the patterns allow plurals and the common variants of one word.
 */
export const NEVER_PAY_PHRASES: readonly NeverPayPhrase[] = [
  { label: "registration fee", pattern: "registration fees?" },
  { label: "registration charges", pattern: "registration (?:charges?|amount)" },
  { label: "security deposit", pattern: "security (?:deposits?|amount|money)" },
  { label: "refundable deposit", pattern: "refundable (?:security )?deposits?" },
  { label: "caution money", pattern: "caution (?:money|deposits?|amount)" },
  { label: "training fee", pattern: `training (?:${FEE}|costs? (?:is |of )?${CURRENCY} ?${AMOUNT})` },
  { label: "processing fee", pattern: `processing ${FEE}` },
  { label: "joining fee", pattern: `joining ${FEE}` },
  { label: "laptop deposit", pattern: "laptop deposits?" },
  { label: "kit charges", pattern: `kit ${FEE}` },
  { label: "enrolment fee", pattern: `enrol?ment ${FEE}` },
  { label: "onboarding fee", pattern: `onboarding ${FEE}` },
  { label: "certificate fee", pattern: `certificat(?:e|ion) ${FEE}` },
  { label: "entry fee", pattern: `entry ${FEE}` },
  { label: `pay ₹${AMOUNT_SUFFIX}`, pattern: `${APPLICANT_PAYS} ₹ ?${AMOUNT}` },
  {
    label: `pay Rs${AMOUNT_SUFFIX}`,
    pattern: `${APPLICANT_PAYS} (?:(?:rs|inr|rupees) ?${AMOUNT}|${AMOUNT} (?:rs|inr|rupees|only))`,
  },
  { label: `a fee of ₹/Rs${AMOUNT_SUFFIX}`, pattern: `${FEE} of ${CURRENCY} ?${AMOUNT}` },
  { label: `fee ₹/Rs${AMOUNT_SUFFIX}`, pattern: `${NOT_NAMED}${FEE} (?:is |are )?${CURRENCY} ?${AMOUNT}` },
  {
    label: `registration ₹/Rs${AMOUNT_SUFFIX}`,
    pattern: `(?:registration|enrol?ment|enrollment) ${CURRENCY} ?${AMOUNT}|` +
      `(?:₹|rs|inr) ?${AMOUNT} (?:rupees )?(?:registration|enrol?ment|enrollment)(?! (?:fees?|charges?|amount) )`,
  },
  {
    label: `deposit ₹/Rs${AMOUNT_SUFFIX}`,
    pattern: `${NOT_EMPLOYERS}${NOT_NAMED}${RECEIVED_BEFORE}deposits? (?:of )?${CURRENCY} ?${AMOUNT}${RECEIVED_AFTER}`,
  },
  {
    label: `payment of ₹/Rs${AMOUNT_SUFFIX}`,
    pattern: `${NOT_EMPLOYERS}${RECEIVED_BEFORE}payments? of ${CURRENCY} ?${AMOUNT}${RECEIVED_AFTER}`,
  },
  {
    label: `send ₹/Rs${AMOUNT_SUFFIX}`,
    pattern: `${NOT_EMPLOYERS}${RECEIVED_BEFORE}(?:send|transfer) ${CURRENCY} ?${AMOUNT}${RECEIVED_AFTER}`,
  },
  { label: "पंजीकरण शुल्क", pattern: `पंजीकरण ${HINDI_FEE}` },
  { label: "सुरक्षा जमा", pattern: "सुरक्षा (?:जमा|राशि)" },
  { label: "प्रशिक्षण शुल्क", pattern: `प्रशिक्षण ${HINDI_FEE}` },
  { label: "रजिस्ट्रेशन फीस", pattern: `रजिस्ट्रेशन ${HINDI_FEE}` },
  { label: "ट्रेनिंग फीस", pattern: `ट्रेनिंग ${HINDI_FEE}` },
  {
    label: `शुल्क ₹${AMOUNT_SUFFIX}`,
    pattern: `${NOT_NAMED}${HINDI_FEE} (?:₹|rs|रु|रुपये) ?${AMOUNT}|(?:₹|rs|रु) ?${AMOUNT} (?:रुपये )?${HINDI_FEE}`,
  },
  {
    label: `₹ देने होंगे${AMOUNT_SUFFIX}`,
    pattern: `${NOT_PAID_OUT}(?:₹|rs|रु) ?${AMOUNT} (?:रुपये |rupaye |rupees )?` +
      "(?:देने (?:होंगे|पड़ेंगे)|देना (?:होगा|पड़ेगा|है)|जमा (?:करें|करना|कराएँ|कराना)|" +
      "dene (?:honge|padenge)|dena (?:hoga|padega|hai)|jama (?:karein|karen|karna|kare))",
  },
];

/** The reason a listing held by this rule carries (`moderation.reasons`). */
export const ASKS_TO_PAY = "Asks applicants to pay";

/** Letters, marks, digits and the rupee sign are kept; everything else separates words. */
const SEPARATORS = /[^\p{L}\p{M}\p{N}₹]+/gu;
/** Invisible format characters (zero-width joiners, soft hyphens, bidi marks): dropped, so "fe\u00ADe" is "fee". */
const FORMAT = /\p{Cf}/gu;
/**
 * The Devanagari nukta: dropped from texts and patterns alike, so "फ़ीस" is "फीस" (NFKC splits the letters written with
 * it into letter and nukta).
 */
const NUKTA = /\u093C/gu;
/** Greek and Cyrillic letters (a letter of these blocks is looked up in `LOOK_ALIKES`). */
const GREEK_OR_CYRILLIC = /[\u0370-\u03FF\u0400-\u052F]/gu;
/**
 * Cyrillic and Greek letters that look like Latin ones, and at the same place in `LATIN_LETTERS` the Latin letter each
 * is read as: "rеgistration fее" written with Cyrillic "е" is "registration fee". Only letters whose shape is the Latin
 * one's in common fonts.
 */
const LOOK_ALIKES = "АВЕЁЅІЈКМНОРСТХУԚԜаеёѕіјкорсхуԁһԛԝӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαεικνορυχγ";
/** The Latin letter of each letter of `LOOK_ALIKES`, in the same order. */
const LATIN_LETTERS = "ABEESIJKMHOPCTXYQWaeesijkopcxydhqwlABEZHIKMNOPTYXaeikvopuxy";

/**
 * Three or more Latin letters standing alone, each apart from the next by one to three other characters ("f e e",
 * "F.E.E", "r-e-g"): words spelt out so as not to be read as such (`joinedLetters`).
 */
const SPELT_OUT = /(?<![\p{L}\p{M}\p{N}])[a-z](?:[^\p{L}\p{M}\p{N}₹]{1,3}[a-z](?![\p{L}\p{M}\p{N}])){2,}/gu;

/**
 * A run of `SPELT_OUT` as the words it spells: the letters joined where the run's most common separator stands, and a
 * space where another does ("r e g  f e e" and "r-e-g f-e-e" are "reg fee"); a leading "a" or "i" stays a word of its
 * own when the rest spells a word of the phrases ("pay a f e e" is "pay a fee", "a m o u n t" is "amount").
 */
function joinedLetters(run: string): string {
  const counts = new Map<string, number>();
  for (const separator of run.match(/[^a-z]+/g)!) counts.set(separator, (counts.get(separator) ?? 0) + 1);
  const usual = [...counts].reduce((most, entry) => entry[1] > most[1] ? entry : most)[0];
  const joined = run.replace(/[^a-z]+/g, (separator) => separator === usual ? "" : " ");
  const [first] = joined.split(" ");
  return /^[ai]/.test(first) && PHRASE_WORDS.has(first.slice(1)) ? `${first[0]} ${joined.slice(1)}` : joined;
}

/**
 * `text` prepared for splitting into words: NFKC, Cyrillic and Greek look-alikes read as Latin (`LOOK_ALIKES`), lower
 * case, format characters and the nukta removed, a word spelt out letter by letter joined (`SPELT_OUT`: "f e e" →
 * "fee"), the rupee sign a word of its own ("₹500" → " ₹ 500").
 */
function prepared(text: string): string {
  return text.normalize("NFKC")
    .replace(GREEK_OR_CYRILLIC, (letter) => LATIN_LETTERS[LOOK_ALIKES.indexOf(letter)] ?? letter)
    .toLowerCase().replace(FORMAT, "").replace(NUKTA, "")
    .replace(SPELT_OUT, joinedLetters).replaceAll("₹", " ₹ ");
}

/**
 * `text` folded for matching (`prepared`), every run of non-word characters one space, with a space at each end.
 */
export function foldForMatching(text: string): string {
  return ` ${prepared(text).replace(SEPARATORS, " ").trim().replace(/ +/g, " ")} `;
}

/** The phrases' patterns compiled, made on first use (`matchers`). */
let compiled: Matchers | undefined;

/** Each phrase with its pattern between word boundaries of folded text, and one pattern matching any of them. */
interface Matchers {
  each: { phrase: NeverPayPhrase; regex: RegExp }[];
  any: RegExp;
}

/**
 * Each phrase's pattern between word boundaries of folded text (every occurrence, each with a space either side), and
 * all of them in one (most texts hold none, and one search says so). Made on first use, so that a bundle needing only
 * `ASKS_TO_PAY` leaves the phrases out.
 */
function matchers(): Matchers {
  const between = (pattern: string) => `(?<= )(?:${pattern.normalize("NFKC").replace(NUKTA, "")})(?= )`;
  compiled ??= {
    each: NEVER_PAY_PHRASES.map((phrase) => ({ phrase, regex: new RegExp(between(phrase.pattern), "gu") })),
    any: new RegExp(between(NEVER_PAY_PHRASES.map(({ pattern }) => `(?:${pattern})`).join("|")), "u"),
  };
  return compiled;
}

/**
 * The words of `text` (separated by white space) as folded text has them (NFKC, as the phrases' patterns are).
 * Marked free of side effects, so that a bundle using none of the word lists leaves them out.
 */
/* @__NO_SIDE_EFFECTS__ */ function wordSet(text: string): ReadonlySet<string> {
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
 * asking and paying, who pays, "or"/"nor" and the words of the phrases themselves, amounts. Any other word ends the
 * negation ("No worries: registration fee ₹500" still matches), and so does a phrase found before (one negation covers
 * a list of phrases only when "or" joins them: `LIST_JOINERS`) and a conjunction (`CONJUNCTIONS`).
 */
const NEGATION_SCOPE = wordSet(
  `a an any the such hidden extra additional other kind kinds type types sort of for from in as or nor
   is are was be will there we do does did you us to ask asks asked asking charge charges charged charging
   collect collects collected take takes taken require requires required need needs needed demand demands
   have has pay paying paid upfront applicants candidates interns students anyone anybody money payment payments
   registration training processing joining security refundable caution laptop kit enrolment enrollment onboarding
   certificate certification entry fee fees deposit deposits amount ₹ rs inr rupees
   कोई किसी भी प्रकार का की के या पंजीकरण शुल्क सुरक्षा जमा राशि प्रशिक्षण रजिस्ट्रेशन ट्रेनिंग फीस चार्ज
   koi kisi bhi`,
);
/**
 * The words that may join a phrase to a negated one before it so that the negation covers both: "No registration fee or
 * training fee", "कोई पंजीकरण शुल्क या प्रशिक्षण शुल्क". Anything else between them ("No registration fee, you pay a training
 * fee") leaves the second asserted.
 */
const LIST_JOINERS = wordSet("or nor या ya a an any the other");
/**
 * Conjunctions that end a clause as punctuation does: a negation never reaches across one ("No registration fee and
 * you pay a training fee of ₹5000", "No registration fee but a training fee"), and each side is judged on its own ("No
 * registration fee and no security deposit").
 */
const CONJUNCTIONS = wordSet("and but however whereas और लेकिन मगर परंतु किंतु aur lekin magar");
/** What a fee is for, as the phrases name it: two of these joined by a conjunction are one list of fees (`wordsOf`). */
const FEE_KINDS = wordSet(
  `registration training processing joining security refundable caution laptop kit enrolment enrollment onboarding
   certificate certification entry पंजीकरण प्रशिक्षण रजिस्ट्रेशन ट्रेनिंग सुरक्षा`,
);
/** The English words of the phrases, which a spelt-out run may start after "a" or "i" (`joinedLetters`). */
const PHRASE_WORDS = wordSet(
  `registration training processing joining security refundable caution laptop kit enrolment enrollment onboarding
   certificate certification entry fee fees charge charges deposit deposits pay payment amount money`,
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

/** A folded text's words, each with whether a clause ends before it (at the text's punctuation or a conjunction). */
interface Words {
  words: string[];
  clauseStart: boolean[];
}

/**
 * `text` as `foldForMatching` splits it into words, with the clause ends between them (after a conjunction). A
 * conjunction between two words of `FEE_KINDS` ("registration and training fee", "पंजीकरण और प्रशिक्षण शुल्क") joins one
 * list of fees: it ends no clause and reads as "or", so "No registration and training fee" negates both.
 */
function wordsOf(text: string): Words {
  const words: string[] = [];
  const clauseStart: boolean[] = [];
  let pendingEnd = false;
  let afterConjunction = false;
  for (const [run] of prepared(text).matchAll(/[\p{L}\p{M}\p{N}₹]+|[^\p{L}\p{M}\p{N}₹]+/gu)) {
    if (/^[\p{L}\p{M}\p{N}₹]/u.test(run)) {
      if (afterConjunction && FEE_KINDS.has(run) && FEE_KINDS.has(words.at(-2)!) && !clauseStart.at(-1)) {
        words[words.length - 1] = "or";
        pendingEnd = false;
      }
      words.push(run);
      clauseStart.push(pendingEnd);
      pendingEnd = afterConjunction = CONJUNCTIONS.has(run);
    } else if (CLAUSE_END.test(run)) {
      pendingEnd = true;
      afterConjunction = false;
    }
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

/**
 * The phrases found in one text as spans of its words: for each word where one or more end, the first word of the
 * longest; for each word where one or more start, the end of the longest.
 */
interface Spans {
  startOf: Map<number, number>;
  endOf: Map<number, number>;
}

/**
 * Whether the phrase at words `start` to `end` (exclusive) of `text` is negated (see the module's docstring), `spans`
 * being the text's phrases.
 */
function isNegated(text: Words, spans: Spans, start: number, end: number): boolean {
  return negationNear(text, spans, start, end) && !clauseInDoubt(text, start, end);
}

/** Whether words `from` to `to` (exclusive) are all `LIST_JOINERS` (none at all included). */
function joinedAsList(words: string[], from: number, to: number): boolean {
  return words.slice(from, to).every((word) => LIST_JOINERS.has(word));
}

/** Whether `word` is an amount's digits (of any script). */
function isDigits(word: string): boolean {
  return /^\p{Nd}+$/u.test(word);
}

/**
 * Whether a negating word stands before the phrase at `start` to `end`, or "नहीं" after it, in its scope: across the
 * words of `NEGATION_SCOPE` (or `HINDI_AFTER`) and across other phrases joined to it by `LIST_JOINERS` only.
 */
function negationNear({ words, clauseStart }: Words, { startOf, endOf }: Spans, start: number, end: number): boolean {
  let listStart = start;
  for (let i = start - 1; i >= 0 && !clauseStart[i + 1]; i--) {
    const earlier = startOf.get(i + 1);
    if (earlier !== undefined) {
      if (!joinedAsList(words, i + 1, listStart)) break;
      listStart = earlier;
      i = earlier;
      continue;
    }
    const word = words[i];
    if (NEGATORS.has(word) || (word === "t" && NOT_CONTRACTED.has(words[i - 1]))) return true;
    if (word === "of" && words[i - 1] === "free") return true;
    if (!NEGATION_SCOPE.has(word) && !isDigits(word)) break;
  }
  let listEnd = end;
  for (let i = end; i < words.length && i < listEnd + 4 && !clauseStart[i]; i++) {
    const later = endOf.get(i);
    if (later !== undefined) {
      if (!joinedAsList(words, listEnd, i)) break;
      listEnd = later;
      i = later - 1;
      continue;
    }
    if (LIST_JOINERS.has(words[i])) continue;
    if (words.slice(listEnd, i).some((word) => LIST_JOINERS.has(word))) break; // "या" not followed by a phrase
    if (HINDI_NOT.has(words[i])) return clauseStart[i + 1] || !OTHERWISE.has(words[i + 1]);
    if (!HINDI_AFTER.has(words[i]) && !isDigits(words[i]) && words[i] !== "₹") break;
  }
  return false;
}

/** The labels of the phrases `text` holds that it does not negate. */
function assertedIn(text: string): string[] {
  const folded = foldForMatching(text);
  const { each, any } = matchers();
  if (!any.test(folded)) return [];
  const found = each.flatMap(({ phrase, regex }) =>
    [...folded.matchAll(regex)].map((match) => {
      const start = folded.slice(0, match.index).split(" ").length - 2;
      return { label: phrase.label, start, end: start + match[0].split(" ").length };
    })
  );
  const spans: Spans = { startOf: new Map(), endOf: new Map() };
  for (const { start, end } of found) {
    spans.startOf.set(end, Math.min(start, spans.startOf.get(end) ?? start));
    spans.endOf.set(start, Math.max(end, spans.endOf.get(start) ?? end));
  }
  const words = wordsOf(text);
  return found.filter(({ start, end }) => !isNegated(words, spans, start, end)).map(({ label }) => label);
}

/**
 * The labels of the phrases of `NEVER_PAY_PHRASES` that `texts` hold (any of them) and do not negate, in list order;
 * empty when none.
 */
export function moneyPhrasesIn(...texts: (string | null | undefined)[]): string[] {
  const asserted = new Set(texts.flatMap((text) => text ? assertedIn(text) : []));
  return NEVER_PAY_PHRASES.filter(({ label }) => asserted.has(label)).map(({ label }) => label);
}
