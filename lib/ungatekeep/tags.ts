/**
 * The tags of an Ungatekeep post (docs/api.md, Ungatekeep, "Post states") with their labels, and
 * the feed's numeric limits. Plain constants, small enough for islands to import.
 */

/** Values of `tag`. */
export const POST_TAGS = ["announcement", "company_experience", "resources"] as const;
export type PostTag = typeof POST_TAGS[number];

/** How each tag is shown. */
export const TAG_LABELS: Record<PostTag, string> = {
  announcement: "Announcement",
  company_experience: "Company experience",
  resources: "Resources",
};

/** Most images a post may carry (docs/api.md, Ungatekeep, "Post states"). */
export const MAX_POST_IMAGES = 5;

/** How many feed posts a guest sees (docs/api.md, Ungatekeep, "Feed"). */
export const GUEST_PREVIEW = 3;
