/**
 * The Ungatekeep post resource (docs/api.md, Ungatekeep, docs/decisions.md, Ungatekeep and banners): its record and
 * view types and the zod schemas of the create and update bodies and the list queries.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { valueBytes } from "@/lib/kv/value_size.ts";
import type { PostEngagement } from "@/lib/comments/schema.ts";
import { MAX_POST_IMAGES, POST_TAGS, type PostTag } from "./tags.ts";

/** A post as stored; optional fields are `null` when unset. */
export interface Post {
  id: string;
  title: string;
  /** Markdown. */
  content: string;
  /** Ids of uploaded files, at most 5. */
  images: string[];
  linkUrl: string | null;
  linkTitle: string | null;
  linkImage: string | null;
  tag: PostTag;
  isPinned: boolean;
  isPublished: boolean;
  /** When the post is (or becomes) public; may be in the future (scheduled). */
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The author; null once they deleted their account (docs/decisions.md, Data rights). */
  userId: string | null;
}

/** The creator object on every read (docs/decisions.md, Ungatekeep and banners). */
export interface PostCreator {
  id: string;
  name: string;
  image: string | null;
}

/**
 * A post as lists carry it (the feed, its API, the RSS feed): the record, `excerpt` (first two non-empty lines as plain
 * text), `creator`, and `commentCount`, `reactions` and (signed in) `myReactions` (docs/decisions.md, Comments and
 * reactions); cards show the excerpt, so the content is not rendered (docs/decisions.md, Ungatekeep and banners).
 */
export interface PostListItem extends Post, PostEngagement {
  excerpt: string;
  /** Null for a former member ("Former member"). */
  creator: PostCreator | null;
}

/** A post as a read of that one post carries it: a list item and `contentHtml`, the markdown rendered and sanitized. */
export interface PostView extends PostListItem {
  contentHtml: string;
}

/** Largest page of the feed. */
export const MAX_FEED_LIMIT = 100;
/** Default page of the feed (docs/decisions.md, Ungatekeep and banners). */
export const DEFAULT_FEED_LIMIT = 20;
/**
 * The most bytes a post's content may take in its record, as `valueBytes` counts them (two bytes a UTF-16 unit,
 * whatever the script): the record is one KV value of 64 KiB, and its other fields have the remainder
 * (docs/decisions.md, Ungatekeep and banners, "Post size").
 */
export const MAX_CONTENT_BYTES = 60_000;
/** The longest post content in characters (UTF-16 units): the most `MAX_CONTENT_BYTES` admits. */
export const MAX_CONTENT_LENGTH = (MAX_CONTENT_BYTES - valueBytes("")) / 2;

/** An absolute http(s) URL; anything else (`javascript:`, `data:`, relative) is refused. */
export const HttpUrlSchema = z.string().trim().max(2048).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "fields.url");

/** An http(s) URL or the path of an uploaded file (`/api/files/<id>`). */
export const ImageUrlSchema = z.union([
  z.string().regex(/^\/api\/files\/[0-9a-f-]{36}$/, "fields.imageReference"),
  HttpUrlSchema,
]);

/** An ISO 8601 timestamp, stored normalized (`toISOString`), years 2000 to 9999. */
const TimestampSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString())
  .refine((value) => value >= "2000" && value < "9999", "fields.yearRange");

const fields = {
  title: TextSchema.trim().min(1).max(200),
  content: TextSchema.min(1).max(MAX_CONTENT_LENGTH),
  images: z.array(z.string().max(100)).max(MAX_POST_IMAGES),
  linkUrl: HttpUrlSchema.nullable(),
  linkTitle: TextSchema.trim().max(200).nullable(),
  linkImage: ImageUrlSchema.nullable(),
  tag: z.enum(POST_TAGS),
  isPinned: z.boolean(),
  isPublished: z.boolean(),
  publishedAt: TimestampSchema.nullable(),
};

/** Body of `POST /api/admin/ungatekeep`: `title`, `content`, `tag` required. Other keys are ignored. */
export const PostCreateSchema = z.object({
  ...fields,
  images: fields.images.default([]),
  linkUrl: fields.linkUrl.optional(),
  linkTitle: fields.linkTitle.optional(),
  linkImage: fields.linkImage.optional(),
  isPinned: fields.isPinned.default(false),
  isPublished: fields.isPublished.default(false),
  publishedAt: fields.publishedAt.optional(),
});
export type PostCreate = z.infer<typeof PostCreateSchema>;

/** Body of `PUT`/`PATCH /api/admin/ungatekeep/{id}`: any subset of the post fields. */
export const PostUpdateSchema = z.object(fields).partial();
export type PostUpdate = z.infer<typeof PostUpdateSchema>;

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Query of `GET /api/ungatekeep`: `tag`, `limit` (1 to 100, default 20), `offset` (≥ 0). */
export const FeedQuerySchema = z.object({
  tag: z.enum(POST_TAGS).optional(),
  limit: intParam(1, MAX_FEED_LIMIT).default(DEFAULT_FEED_LIMIT),
  offset: intParam(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type FeedQuery = z.infer<typeof FeedQuerySchema>;

/** Query of `GET /api/admin/ungatekeep`: `search` (every word, title and content), `tag`, `limit` (default 50), `offset`. */
export const AdminPostQuerySchema = z.object({
  search: z.string().max(200).optional(),
  tag: z.enum(POST_TAGS).optional(),
  limit: intParam(1, MAX_FEED_LIMIT).default(50),
  offset: intParam(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type AdminPostQuery = z.infer<typeof AdminPostQuerySchema>;
