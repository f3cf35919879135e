/**
 * Toolkit and content item records, their API shapes and the zod schemas of the admin bodies
 * (docs/api.md, Toolkits, "Lessons"; docs/decisions.md, Toolkits and payments). Records keep prices in
 * integer paise; the API shapes in rupees.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { hasAtMostTwoDecimals, MAX_PRICE_RUPEES } from "@/lib/money.ts";
import { isImageReference } from "@/lib/users/profile.ts";
import { ownFilePaths } from "@/lib/files/images.ts";
import { ARTICLE_MAX, ARTICLE_MAX_BYTES } from "./limits.ts";

/** A price in rupees: 0 to 10,000,000 with at most 2 decimals (docs/decisions.md, Toolkits and payments). */
export const RupeesSchema = z.number().min(0).max(MAX_PRICE_RUPEES).refine(hasAtMostTwoDecimals, {
  message: "fields.twoDecimals",
});

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
/**
 * A video address: https only, since an http video is blocked as mixed content on the https site
 * and would never play.
 */
const videoUrl = z.url({
  protocol: /^https$/,
  error: "fields.httpsVideo",
})
  .max(2048);
const text = (max: number) => TextSchema.trim().min(1).max(max);
/** A cover image: an http(s) URL, or the path of an image uploaded to this site (`/api/files/<id>`). */
const imageReference = z.string().max(2048).refine(
  isImageReference,
  "fields.imageReference",
);

/**
 * `body` (a toolkit's or a lesson's fields as validated) with the addresses of the site's own uploads (at `appUrl`'s
 * origin) in `coverImageUrl` and `content` written as their paths (`ownFilePaths`), the form the clean-up of unused
 * images counts as a use (docs/decisions.md, Ungatekeep and banners, "Images").
 */
export function withOwnFilePaths<T extends { coverImageUrl?: string | null; content?: string | null }>(
  body: T,
  appUrl: string,
): T {
  return {
    ...body,
    ...body.coverImageUrl ? { coverImageUrl: ownFilePaths(body.coverImageUrl, appUrl) } : {},
    ...body.content ? { content: ownFilePaths(body.content, appUrl) } : {},
  };
}

/** Lesson types. */
export const CONTENT_TYPES = ["article", "video"] as const;
/** One of `CONTENT_TYPES`. */
export type ContentType = typeof CONTENT_TYPES[number];

/**
 * A toolkit's price: free (0) or at least ₹1, the gateway's minimum charge. A price between would be
 * charged as ₹1, more than the toolkit costs (docs/decisions.md, Toolkits and payments, "Prices").
 */
const ToolkitPriceSchema = RupeesSchema.refine((rupees) => rupees === 0 || rupees >= 1, {
  message: "fields.priceMinimum",
});

/** Body of `POST /api/toolkits` and `POST /api/admin/toolkits`. */
export const ToolkitCreateSchema = z.object({
  title: text(200),
  description: text(10_000),
  price: ToolkitPriceSchema,
  originalPrice: RupeesSchema.nullable().optional(),
  coverImageUrl: imageReference.nullable().optional(),
  videoUrl: videoUrl.nullable().optional(),
  contentUrl: httpUrl.nullable().optional(),
  category: text(100).nullable().optional(),
  highlights: z.array(text(300)).max(30).nullable().optional(),
  totalDuration: text(100).nullable().optional(),
  lessonCount: z.int().min(0).max(10_000).optional(),
  showSaleBadge: z.boolean().nullable().optional(),
});
export type ToolkitCreate = z.infer<typeof ToolkitCreateSchema>;

/** Body of `PUT /api/admin/toolkits/{id}`: any toolkit field, `isActive` included. */
export const ToolkitUpdateSchema = ToolkitCreateSchema.partial().extend({ isActive: z.boolean().optional() });
export type ToolkitUpdate = z.infer<typeof ToolkitUpdateSchema>;

/** Query of `GET /api/admin/toolkits`. */
export const ToolkitSearchSchema = z.object({ search: z.string().trim().max(100).optional() });

/** A toolkit as stored. */
export interface ToolkitRecord {
  id: string;
  title: string;
  description: string;
  pricePaise: number;
  originalPricePaise: number | null;
  coverImageUrl: string | null;
  videoUrl: string | null;
  contentUrl: string | null;
  category: string | null;
  highlights: string[] | null;
  totalDuration: string | null;
  /** As the admin gave it until the toolkit has content items; then their number. */
  lessonCount: number;
  /** Number of content items. */
  itemCount: number;
  isActive: boolean;
  showSaleBadge: boolean | null;
  /** The creator; null once they deleted their account (docs/decisions.md, Data rights). */
  userId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A toolkit in API responses (docs/api.md, Toolkits): prices in rupees, the creator's name. */
export interface Toolkit {
  id: string;
  title: string;
  description: string;
  price: number;
  originalPrice: number | null;
  coverImageUrl: string | null;
  videoUrl: string | null;
  contentUrl: string | null;
  category: string | null;
  highlights: string[] | null;
  totalDuration: string | null;
  lessonCount: number;
  isActive: boolean;
  showSaleBadge: boolean | null;
  /** The creator; null once they deleted their account (docs/decisions.md, Data rights). */
  userId: string | null;
  creatorName: string;
  createdAt: string;
  updatedAt: string;
}

/** Body of `POST /api/admin/toolkit-content-items` (docs/decisions.md, Toolkits and payments). */
export const ContentItemCreateSchema = z.object({
  toolkitId: z.string().min(1).max(100),
  title: text(200),
  type: z.enum(CONTENT_TYPES),
  content: TextSchema.max(ARTICLE_MAX).describe(
    `An article's HTML: at most ${ARTICLE_MAX} characters, ${ARTICLE_MAX_BYTES} bytes at two bytes a character ` +
      "(what one KV value leaves it)",
  ).nullable().optional(),
  cdnVideoUrl: videoUrl.nullable().optional(),
  orderIndex: z.int().min(0).max(100_000).optional(),
  isPreview: z.boolean().optional(),
});
export type ContentItemCreate = z.infer<typeof ContentItemCreateSchema>;

/** Body of `PATCH /api/admin/toolkit-content-items/{id}`: any field but `toolkitId`. */
export const ContentItemUpdateSchema = ContentItemCreateSchema.omit({ toolkitId: true }).partial();
export type ContentItemUpdate = z.infer<typeof ContentItemUpdateSchema>;

/** A content item (lesson), as stored and as answered (`content` and `cdnVideoUrl` null when locked). */
export interface ContentItem {
  id: string;
  toolkitId: string;
  title: string;
  type: ContentType;
  /** Sanitized HTML for an article; null for a video. */
  content: string | null;
  cdnVideoUrl: string | null;
  orderIndex: number;
  /** A free preview lesson anyone may read (docs/decisions.md, Toolkits and payments). */
  isPreview: boolean;
  createdAt: string;
  updatedAt: string;
}
