/**
 * Browser-safe: why moderation withholds a listing, in one sentence for its owner and the admins, in the reader's
 * language (docs/decisions.md, Trust, "Moderation"). A listing stores its reasons as fixed English codes
 * (`ASKS_TO_PAY`, `REPORTED_BY_STUDENTS`, `REJECTED_BY_ADMIN`), which the API answers as they are; the words are chosen
 * here when shown. A reason this module does not know is shown as stored.
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import {
  type ListingText,
  listingTexts,
  type ModerationView,
  REJECTED_BY_ADMIN,
  REPORTED_BY_STUDENTS,
} from "@/lib/moderation/moderation.ts";
import { AMOUNT_SUFFIX, ASKS_TO_PAY, moneyPhrasesIn } from "@/lib/moderation/never_pay.ts";

/** The key prefix of the reasons' messages, for an island that shows them (its `text` prop). */
export const MODERATION_REASON_TEXT = ["trust.moderation.reason."] as const;

/** The catalogue message of each stored reason. */
const REASON_KEYS = {
  [ASKS_TO_PAY]: "trust.moderation.reason.asksToPay",
  [REPORTED_BY_STUDENTS]: "trust.moderation.reason.reported",
  [REJECTED_BY_ADMIN]: "trust.moderation.reason.rejectedByAdmin",
} as const;

/** Stored `reasons` in words, separated by semicolons ("Asks applicants to pay; Reported by students"). */
export function moderationReasons(t: Translate, reasons: readonly string[]): string {
  return reasons.map((reason) => {
    const key = REASON_KEYS[reason as keyof typeof REASON_KEYS];
    return key ? t(key) : reason;
  }).join("; ");
}

/**
 * A never-pay phrase's label in words: a phrase with an amount as its words up to the currency and an ellipsis for the
 * amount ("pay ₹…"), the currency named once ("a fee of ₹…", where the label says "₹/Rs"), as the reader's language
 * writes it.
 */
function phraseText(t: Translate, label: string): string {
  if (!label.endsWith(AMOUNT_SUFFIX)) return label;
  const phrase = label.slice(0, -AMOUNT_SUFFIX.length).replace("₹/Rs", "₹");
  return t("trust.moderation.reason.withAmount", { phrase });
}

/**
 * The reasons in one sentence, naming the phrases found in any of the listing's texts (`listingTexts`) when it asks
 * applicants to pay.
 */
export function moderationReasonText(t: Translate, moderation: ModerationView, text: ListingText): string {
  const reasons = moderationReasons(t, moderation.reasons);
  const phrases = moderation.reasons.includes(ASKS_TO_PAY) ? moneyPhrasesIn(...listingTexts(text)) : [];
  if (phrases.length === 0) return t("trust.moderation.reason.sentence", { reasons });
  const quoted = phrases.map((phrase) => `“${phraseText(t, phrase)}”`).join(", ");
  return t("trust.moderation.reason.mentions", { reasons, phrases: quoted });
}
