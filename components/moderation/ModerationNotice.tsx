/**
 * What the owner and admins read on a listing that moderation withholds (docs/decisions.md, Trust, "Moderation"): that
 * students cannot see it, why (the reasons, and the never-pay phrases its text holds), and what happens next. Nothing
 * for a clear listing.
 */
import type { ListingText, ModerationView } from "@/lib/moderation/moderation.ts";
import { moderationReasonText } from "@/lib/browser/moderation_format.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The notice on a withheld listing's own page, for its owner and admins. */
export function ModerationNotice(
  { moderation, listing, noun }: {
    moderation: ModerationView;
    listing: ListingText;
    noun: "internship" | "opportunity";
  },
) {
  const t = useT();
  if (moderation.status === "clear") return null;
  const held = moderation.status === "held";
  return (
    <div
      role="status"
      class={`rounded-md border px-4 py-3 text-sm ${
        held ? "border-amber-300 bg-amber-50 text-amber-950" : "border-red-300 bg-red-50 text-red-900"
      }`}
    >
      <p class="font-semibold">
        {t(held ? "trust.moderation.held" : "trust.moderation.rejected", { noun })}
      </p>
      <p class="mt-1">{t("trust.moderation.why", { reason: moderationReasonText(t, moderation, listing) })}</p>
      <p class="mt-1">{t(held ? "trust.moderation.heldBody" : "trust.moderation.rejectedBody")}</p>
    </div>
  );
}
