/**
 * RSS 2.0 feeds (docs/decisions.md, Search engines and sharing): `/ungatekeep/rss.xml`, the 20 newest live posts
 * (title, link, date, excerpt, tag as category), and `/internships/rss.xml`, the 50 newest open internships matching
 * the list's filters, so a saved search is also a feed. Every link is absolute on the site's public origin.
 */
import { istDayOf } from "@/lib/dates.ts";
import { formatStipend } from "@/lib/internships/stipend.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { PostListItem } from "@/lib/ungatekeep/schema.ts";
import { TAG_LABELS } from "@/lib/ungatekeep/tags.ts";
import { absoluteUrl, SITE_NAME } from "./json_ld.ts";
import { escapeXml } from "./xml.ts";

/** How many posts the posts feed carries. */
export const POSTS_FEED_SIZE = 20;
/** How many internships an internship feed carries. */
export const INTERNSHIPS_FEED_SIZE = 50;

/** The `Content-Type` of a feed. */
export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";

/** One item of a feed. */
export interface FeedItem {
  title: string;
  /** An absolute path on the site. */
  path: string;
  /** ISO 8601. */
  date: string;
  description: string;
  categories: string[];
}

/** A feed: what it is, where it lives and its page on the site (absolute paths), and its items newest first. */
export interface Feed {
  title: string;
  description: string;
  /** The feed's own path and query, e.g. `/internships/rss.xml?tags=react`. */
  selfPath: string;
  /** The page the feed follows, e.g. `/internships?tags=react`. */
  pagePath: string;
  items: FeedItem[];
}

/** The RFC 822 date RSS 2.0 asks for, e.g. `Tue, 24 Nov 2026 18:30:00 GMT`. */
function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

/** `feed` as an RSS 2.0 document, its links on `origin`. */
export function rssDocument(origin: string, feed: Feed): string {
  const tag = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;
  const newest = feed.items[0]?.date;
  const items = feed.items.map((item) => {
    const link = absoluteUrl(origin, item.path);
    return [
      "<item>",
      tag("title", item.title),
      tag("link", link),
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      tag("pubDate", rfc822(item.date)),
      tag("description", item.description),
      ...item.categories.map((category) => tag("category", category)),
      "</item>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    tag("title", feed.title),
    tag("link", absoluteUrl(origin, feed.pagePath)),
    tag("description", feed.description),
    tag("language", "en-IN"),
    newest ? tag("lastBuildDate", rfc822(newest)) : "",
    `<atom:link href="${escapeXml(absoluteUrl(origin, feed.selfPath))}" rel="self" type="application/rss+xml"/>`,
    ...items.map((item) => `\n${item}`),
    "\n</channel></rss>\n",
  ].join("");
}

/** The posts feed of `posts` (newest first). */
export function postsFeed(posts: PostListItem[]): Feed {
  return {
    title: `Ungatekeep · ${SITE_NAME}`,
    description: "Career advice, resources and stories shared openly.",
    selfPath: "/ungatekeep/rss.xml",
    pagePath: "/ungatekeep",
    items: posts.map((post) => ({
      title: post.title,
      path: `/ungatekeep/${post.id}`,
      date: post.publishedAt ?? post.createdAt,
      description: post.excerpt,
      categories: [TAG_LABELS[post.tag]],
    })),
  };
}

/** The internships feed of `internships` (newest first) for the list query string `query` (without `?`). */
export function internshipsFeed(internships: InternshipView[], query: string): Feed {
  const suffix = query ? `?${query}` : "";
  return {
    title: `Internships${query ? " matching your filters" : ""} · ${SITE_NAME}`,
    description: "The newest open internships" + (query ? " matching the filters of this feed." : "."),
    selfPath: `/internships/rss.xml${suffix}`,
    pagePath: `/internships${suffix}`,
    items: internships.map((internship) => ({
      title: `${internship.title} at ${internship.hiringOrganization}`,
      path: `/internships/${internship.id}`,
      date: internship.createdAt,
      description: [
        formatStipend(internship.stipend),
        internship.location,
        internship.deadline ? `Apply by ${istDayOf(internship.deadline)}` : null,
        internship.description,
      ].filter(Boolean).join(" · "),
      categories: internship.tags,
    })),
  };
}
