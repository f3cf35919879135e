/**
 * The `listing_moderated` notification (docs/decisions.md, Trust, "Moderation"): what an admin decided on a listing,
 * with their note, for its owner, its words kept as catalogue messages (docs/decisions.md, Languages, "Stored words").
 */
import type { NotificationInput } from "@/lib/notifications/notifications.ts";
import { type Moderation, moderationOf } from "./moderation.ts";

/** What the notification says of a listing: its id, title and moderation state after the decision. */
export interface ModeratedListing {
  id: string;
  title: string;
  moderation?: Moderation;
}

/**
 * The notification telling `userId` what was decided on their `listing` (an internship or an opportunity): approved
 * and listed, or rejected and kept out; the admin's note, when they wrote one, follows.
 */
export function moderatedNotification(
  { kind, listing, userId }: { kind: "internship" | "opportunity"; listing: ModeratedListing; userId: string },
): NotificationInput {
  const { status, note } = moderationOf(listing);
  const url = `/${kind === "internship" ? "internships" : "opportunities"}/${listing.id}`;
  const values = { kind, title: listing.title, hasNote: note ? "yes" : "no", note: note ?? "" };
  const words = status === "clear" ? "listingApproved" : "listingRejected";
  return {
    userId,
    type: "listing_moderated",
    message: {
      title: { key: `notifications.text.${words}.title`, values },
      body: { key: `notifications.text.${words}.body`, values },
    },
    url,
  };
}
