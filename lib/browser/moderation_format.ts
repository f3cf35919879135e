/**
 * Browser-safe: why moderation withholds a listing, in one sentence for its owner and the admins (docs/decisions.md,
 * Trust, "Moderation").
 */
import type { ModerationView } from "@/lib/moderation/moderation.ts";
import { ASKS_TO_PAY, moneyPhrasesIn } from "@/lib/moderation/never_pay.ts";

/** The reasons in one sentence, naming the phrases found when the listing asks applicants to pay. */
export function moderationReasonText(moderation: ModerationView, text: { title: string; description: string | null }) {
  const phrases = moderation.reasons.includes(ASKS_TO_PAY) ? moneyPhrasesIn(text.title, text.description) : [];
  const found = phrases.length > 0 ? ` (it mentions ${phrases.map((p) => `“${p}”`).join(", ")})` : "";
  return `${moderation.reasons.join("; ")}${found}.`;
}
