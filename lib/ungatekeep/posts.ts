/**
 * The Ungatekeep posts capability (docs/api.md, Ungatekeep, "Feed"; docs/api.md, Ungatekeep, "Post states";
 * docs/decisions.md, Ungatekeep and banners): the public feed and read by id with the guest rule, the admin list with
 * drafts and scheduled posts, create, partial update and delete.
 *
 * Published means `isPublished` and `publishedAt` ≤ now, decided at read time: a scheduled post
 * enters the feed by itself when its time comes. Keys (written here only):
 * - `["ungatekeep_posts", id]` the record (`POSTS_PREFIX`; `image_use.ts` reads which images posts name);
 * - `["ungatekeep_feed", scope, pinned, publishedAt, id]` → null for every post with
 *   `isPublished` (scope `"all"` and the post's tag; pinned 1 or 0), so the feed is a reverse
 *   range read up to now: pinned first, newest first;
 * - `["ungatekeep_published", scope]` a `Deno.KvU64` count of those entries; the visible total is
 *   that count minus the few entries still scheduled after now (a short range read);
 * - `["ungatekeep_meta", "changes"]` a `Deno.KvU64` count of writes: its versionstamp is the version of the posts
 *   (`postsVersion`), which the feed and the sitemap are cached by.
 * - `["post_deletions", id]` → `{images, lease}` while a post's deletion is under way (see `deletePost`; the
 *   `post-deletions` job finishes one that stopped).
 * - `["ungatekeep_admin", publishedAt ?? createdAt, id]` → tag for every post: the admin list's order, read in reverse
 *   without the records; `["ungatekeep_admin_search", publishedAt ?? createdAt, id]` → `AdminSearchEntry` (the tag and
 *   the text the admin search matches, `searchTextOf`) beside it. Posts stored before them are indexed once by the
 *   `posts-admin-index` job (docs/decisions.md, Background work, "Index backfills"), which keeps its cursor in
 *   `["ungatekeep_meta", "admin_search_index"]` (before the search entries, `["ungatekeep_meta", "admin_index"]`,
 *   deleted when it is done).
 * - `["ungatekeep_posts_by_user", userId, id]` → null for every post with an author: the posts a person wrote, for
 *   their export and deletion (`postsBy`). Posts stored before it are indexed once by the `posts-author-index` job,
 *   which keeps its cursor in `["ungatekeep_meta", "author_index"]`; until it is done `postsBy` reads every post.
 * Every change writes the record, its feed entries and the counts in one atomic commit checked
 * against the record read.
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { type Backfill, backfillDone, runBackfill } from "@/lib/kv/backfill.ts";
import { InvalidInputError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { type OnLostRace, RaceLost } from "@/lib/kv/retry.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import { KV_VALUE_MAX_BYTES, valueBytes } from "@/lib/kv/value_size.ts";
import { assertUploaded } from "@/lib/files/images.ts";
import { deleteUnusedImages, POSTS_PREFIX } from "./image_use.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import { getUsers, type User } from "@/lib/users/users.ts";
import { deleteConversation, engagementOf } from "@/lib/comments/store.ts";
import { excerptOf, renderMarkdown } from "./markdown.ts";
import { canReadPublished, hiddenCountFor, type Viewer, visiblePage } from "./policy.ts";
import type {
  AdminPostQuery,
  FeedQuery,
  Post,
  PostCreate,
  PostCreator,
  PostListItem,
  PostUpdate,
  PostView,
} from "./schema.ts";
import { GUEST_PREVIEW, POST_TAGS, type PostTag } from "./tags.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { claim, type Claimable, claimTime, HOLDER, isLeased } from "@/lib/jobs/lease.ts";
import { LRUCache } from "lru-cache";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { finishRemoval, openReportsOf, removalOps } from "@/lib/reports/removals.ts";

export * from "./schema.ts";

/** A page of the feed (docs/decisions.md, Ungatekeep and banners). */
export interface FeedPage {
  posts: PostListItem[];
  total: number;
  hiddenCount: number;
}

/** A page of the admin list. */
export interface AdminPostPage {
  posts: PostListItem[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
  /** When a search looked through the newest `SEARCHED_POSTS` posts (of the tag) only (there are more): that number. */
  searchedNewest: number | null;
}

/** How many of the newest posts (of the tag, when given) a search looks through. */
export const SEARCHED_POSTS = 1000;
/** Characters of a post's content, from its start, that the admin search matches (besides the title). */
export const SEARCH_TEXT_CHARS = 500;

const NOT_FOUND = REFUSALS.postNotFound;
const MAX_RETRIES = 10;
const ONE = 1n;
/** −1 as KV's wrapping 64-bit sum sees it. */
const MINUS_ONE = 0xffffffffffffffffn;

type Scope = "all" | PostTag;

const recordKey = (id: string): Deno.KvKey => [...POSTS_PREFIX, id];
const countKey = (scope: Scope): Deno.KvKey => ["ungatekeep_published", scope];
/** A post's entry in the index of posts by author. */
const authorKey = (userId: string, id: string): Deno.KvKey => ["ungatekeep_posts_by_user", userId, id];
const CHANGES_KEY: Deno.KvKey = ["ungatekeep_meta", "changes"];

/**
 * The version of the posts: it changes with every write (by any process). A scheduled post going live changes no
 * version: caches also end at `nextScheduled`.
 */
export async function postsVersion(kv: Deno.Kv): Promise<string> {
  return `posts:${(await kv.get(CHANGES_KEY)).versionstamp ?? "none"}`;
}

/** A post's entry in the admin list's index. */
const adminKey = (post: Post): Deno.KvKey => ["ungatekeep_admin", sortTime(post), post.id];
/** A post's entry in the admin search's index. */
const searchKey = (post: Post): Deno.KvKey => ["ungatekeep_admin_search", sortTime(post), post.id];

/** What the admin search reads of a post: its tag, and `searchTextOf` it. */
interface AdminSearchEntry {
  tag: PostTag;
  text: string;
}

/** The text the admin search matches: the title and the first `SEARCH_TEXT_CHARS` of the content, lower-cased. */
function searchTextOf(post: Post): string {
  return `${post.title}\n${post.content.slice(0, SEARCH_TEXT_CHARS)}`.toLowerCase();
}

/** The admin indexes' entries of `post`, set in `op`. */
function setAdminEntries(op: Deno.AtomicOperation, post: Post): void {
  const entry: AdminSearchEntry = { tag: post.tag, text: searchTextOf(post) };
  op.set(adminKey(post), post.tag).set(searchKey(post), entry);
}

function feedKeys(post: Post): Deno.KvKey[] {
  if (!post.isPublished || !post.publishedAt) return [];
  const pinned = post.isPinned ? 1 : 0;
  return (["all", post.tag] as Scope[]).map((scope) => ["ungatekeep_feed", scope, pinned, post.publishedAt!, post.id]);
}

/** True when `post` is public at `now`. */
export function isLive(post: Post, now = new Date()): boolean {
  return post.isPublished && post.publishedAt !== null && post.publishedAt <= now.toISOString();
}

/** Writes `after` (or deletes, when null) over the record read as `before`; false on a lost race. */
async function commitPost(kv: Deno.Kv, before: Deno.KvEntryMaybe<Post>, after: Post | null): Promise<boolean> {
  return (await postOps(kv, before, after).commit()).ok;
}

/** The write of `after` (or the deletion, when null) over the record read as `before`, checked against it. */
function postOps(kv: Deno.Kv, before: Deno.KvEntryMaybe<Post>, after: Post | null): Deno.AtomicOperation {
  const op = kv.atomic();
  addPostOps(op, before, after);
  return op;
}

/** Adds to `op` the write of `after` (or the deletion, when null) over the record read as `before`, checked. */
function addPostOps(op: Deno.AtomicOperation, before: Deno.KvEntryMaybe<Post>, after: Post | null): void {
  const id = before.key[1] as string;
  op.check(before).sum(CHANGES_KEY, ONE);
  if (after) op.set(recordKey(id), after);
  else op.delete(recordKey(id));
  const oldKeys = before.value ? feedKeys(before.value) : [];
  const newKeys = after ? feedKeys(after) : [];
  const same = (a: Deno.KvKey, b: Deno.KvKey) => a.every((part, i) => part === b[i]);
  for (const key of oldKeys) if (!newKeys.some((k) => same(k, key))) op.delete(key);
  for (const key of newKeys) if (!oldKeys.some((k) => same(k, key))) op.set(key, null);
  const delta = new Map<Scope, number>();
  for (const key of oldKeys) delta.set(key[1] as Scope, (delta.get(key[1] as Scope) ?? 0) - 1);
  for (const key of newKeys) delta.set(key[1] as Scope, (delta.get(key[1] as Scope) ?? 0) + 1);
  for (const [scope, n] of delta) if (n !== 0) op.sum(countKey(scope), n > 0 ? ONE : MINUS_ONE);
  if (before.value && (!after || sortTime(before.value) !== sortTime(after))) {
    op.delete(adminKey(before.value)).delete(searchKey(before.value));
  }
  if (after) setAdminEntries(op, after);
  const author = after?.userId ?? null;
  if (before.value?.userId && before.value.userId !== author) op.delete(authorKey(before.value.userId, id));
  if (author) op.set(authorKey(author, id), null);
}

/**
 * The creators of `userIds` by id; an id whose user record is gone (an account being deleted, before its posts are
 * forgotten) is absent, so its posts show a former member (`creator` null).
 */
async function creatorsOf(kv: Deno.Kv, userIds: string[]): Promise<Map<string, PostCreator>> {
  const users = await getUsers(kv, userIds);
  return new Map([...users].map(([id, user]) => [id, { id, name: user.name, image: user.image ?? null }]));
}

/** Most rendered contents kept (`contentHtmlOf`), the least recently read out first. */
const RENDERED_MAX = 1000;
const rendered = new LRUCache<string, string>({ max: RENDERED_MAX });

/**
 * The sanitized HTML of a post's content, rendered once per post version (`id` and `updatedAt`: every write moves
 * `updatedAt`) and kept in memory, so a post's page does not run markdown and the sanitizer again for every reader.
 */
async function contentHtmlOf(post: Post): Promise<string> {
  const key = `${post.id}:${post.updatedAt}`;
  let html = rendered.get(key);
  if (html === undefined) {
    html = await renderMarkdown(post.content);
    rendered.set(key, html);
  }
  return html;
}

/**
 * `posts` as lists carry them: with excerpt, creator, and the comment and reaction counts (docs/decisions.md, Comments
 * and reactions); `myReactions` too when `viewer` is signed in. The content is not rendered.
 */
async function listItemsOf(kv: Deno.Kv, posts: Post[], viewer?: Viewer): Promise<PostListItem[]> {
  const [creators, engagement] = await Promise.all([
    creatorsOf(kv, posts.flatMap((post) => post.userId ?? [])),
    engagementOf(kv, posts.map((post) => post.id), viewer?.id),
  ]);
  return posts.map((post) => ({
    ...post,
    excerpt: excerptOf(post.content),
    creator: post.userId === null ? null : creators.get(post.userId) ?? null,
    ...engagement.get(post.id)!,
  }));
}

/** `posts` as reads of one post carry them: list items (`listItemsOf`) with the rendered content, `contentHtml`. */
async function viewsOf(kv: Deno.Kv, posts: Post[], viewer?: Viewer): Promise<PostView[]> {
  const items = await listItemsOf(kv, posts, viewer);
  return await Promise.all(items.map(async (item) => ({ ...item, contentHtml: await contentHtmlOf(item) })));
}

/** A post as its feed entry names it. */
interface FeedEntry {
  id: string;
  publishedAt: string;
}

/** The live posts of `scope` at `now`, in feed order, the first `count` of them, as their feed entries name them. */
async function feedHead(
  kv: Deno.Kv,
  { scope, count, now }: { scope: Scope; count: number; now: Date },
): Promise<FeedEntry[]> {
  const cut = new Date(now.getTime() + 1).toISOString();
  const head: FeedEntry[] = [];
  for (const pinned of [1, 0]) {
    if (head.length >= count) break;
    const entries = kv.list(
      { start: ["ungatekeep_feed", scope, pinned], end: ["ungatekeep_feed", scope, pinned, cut] },
      { reverse: true, limit: count - head.length, batchSize: Math.min(500, count - head.length) },
    );
    for await (const { key } of entries) head.push({ id: key[4] as string, publishedAt: key[3] as string });
  }
  return head;
}

/** Ids of the live posts of `scope` at `now`, in feed order, the first `count` of them. */
async function feedIds(kv: Deno.Kv, query: { scope: Scope; count: number; now: Date }): Promise<string[]> {
  return (await feedHead(kv, query)).map((post) => post.id);
}

/** How many posts of `scope` are live at `now`: the published count less those scheduled later. */
async function liveCount(kv: Deno.Kv, scope: Scope, now: Date): Promise<number> {
  const cut = new Date(now.getTime() + 1).toISOString();
  const scheduled = async (pinned: number) => {
    let n = 0;
    const entries = kv.list({
      start: ["ungatekeep_feed", scope, pinned, cut],
      end: ["ungatekeep_feed", scope, pinned + 1],
    });
    for await (const _ of entries) n++;
    return n;
  };
  const [published, pinnedLater, unpinnedLater] = await Promise.all([
    kv.get<Deno.KvU64>(countKey(scope)),
    scheduled(1),
    scheduled(0),
  ]);
  return Number(published.value?.value ?? 0n) - pinnedLater - unpinnedLater;
}

async function postsById(kv: Deno.Kv, ids: string[]): Promise<Post[]> {
  const entries = await getManyChunked<Post>(kv, ids.map(recordKey));
  return entries.flatMap((entry) => entry.value ? [entry.value] : []);
}

/**
 * One page of the public feed (docs/decisions.md, Ungatekeep and banners): live posts, pinned first, then newest first,
 * optionally of one `tag`. A guest gets the first 3 whatever the offset and limit, and
 * `hiddenCount` = total − 3 (never negative); a signed-in viewer the page asked for and 0.
 */
export async function listFeed(
  kv: Deno.Kv,
  { query, viewer, now = new Date() }: { query: FeedQuery; viewer: Viewer; now?: Date },
): Promise<FeedPage> {
  const scope: Scope = query.tag ?? "all";
  const { offset, limit } = visiblePage(viewer, query.offset, query.limit);
  const [ids, total] = await Promise.all([
    feedIds(kv, { scope, count: offset + limit, now }),
    liveCount(kv, scope, now),
  ]);
  const posts = await listItemsOf(kv, await postsById(kv, ids.slice(offset)), viewer);
  return { posts, total, hiddenCount: hiddenCountFor(viewer, total) };
}

/**
 * The posts `userId` wrote (every state), in id order, for the person's data export and deletion: their entries in the
 * index of posts by author, then those records. Until the `posts-author-index` job has indexed the posts stored
 * before the index, every post is read instead (docs/decisions.md, Data rights, "Read by person").
 */
export async function postsBy(kv: Deno.Kv, userId: string): Promise<Post[]> {
  if (!(await backfillDone(kv, AUTHOR_INDEX_PROGRESS))) {
    const posts: Post[] = [];
    for await (const entry of kv.list<Post>({ prefix: POSTS_PREFIX }, { batchSize: LIST_BATCH })) {
      if (entry.value.userId === userId) posts.push(entry.value);
    }
    return posts;
  }
  return (await postsById(kv, await indexedPostIds(kv, userId))).filter((post) => post.userId === userId);
}

/** The ids in `userId`'s entries of the index of posts by author (complete once `posts-author-index` is done). */
async function indexedPostIds(kv: Deno.Kv, userId: string): Promise<string[]> {
  const entries = kv.list({ prefix: ["ungatekeep_posts_by_user", userId] }, { batchSize: LIST_BATCH });
  return await Array.fromAsync(entries, ({ key }) => key[2] as string);
}

/**
 * How many posts `userId` wrote, as `postsBy` would list them, from their entries in the index of posts by author
 * without reading the posts ("Your data", docs/decisions.md, Data rights, "Read by person"); until the
 * `posts-author-index` job is done, their count as listed.
 */
export async function postCountBy(kv: Deno.Kv, userId: string): Promise<number> {
  if (!(await backfillDone(kv, AUTHOR_INDEX_PROGRESS))) return (await postsBy(kv, userId)).length;
  let count = 0;
  const entries = kv.list({ prefix: ["ungatekeep_posts_by_user", userId] }, { batchSize: LIST_BATCH });
  for await (const _ of entries) count++;
  return count;
}

/** Posts account deletion reads at once, between two renewals of its lease. */
const FORGET_BATCH = 50;

/**
 * Keeps the posts `userId` wrote without their author (`userId` null, shown as a former member): account deletion.
 * The posts are taken `FORGET_BATCH` at a time, read at once (`getManyChunked`), each post's checked write packed
 * with the others' into few commits (`commitPacked`); one changed meanwhile is read again and written alone. After
 * each batch it calls `renew` (the deletion's lease), whose throw stops it. Idempotent.
 * @throws what `renew` throws.
 */
export async function forgetPostAuthor(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  const ids = await backfillDone(kv, AUTHOR_INDEX_PROGRESS)
    ? await indexedPostIds(kv, userId)
    : (await postsBy(kv, userId)).map((post) => post.id);
  const forgotten = (entry: Deno.KvEntryMaybe<Post>) => {
    const unit = new WriteUnit();
    if (entry.value?.userId === userId) addPostOps(unit.op, entry, { ...entry.value, userId: null });
    return unit;
  };
  for (let start = 0; start < ids.length; start += FORGET_BATCH) {
    const batch = ids.slice(start, start + FORGET_BATCH);
    const entries = await getManyChunked<Post>(kv, batch.map(recordKey));
    const written = await commitPacked(kv, entries.map(forgotten));
    for (const [i, id] of batch.entries()) {
      if (written[i]) continue;
      for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
        const entry = await kv.get<Post>(recordKey(id));
        if (entry.value?.userId !== userId) break;
        if (await commitPost(kv, entry, { ...entry.value, userId: null })) break;
      }
    }
    await renew?.();
  }
}

/** The live posts a guest can read at a moment, newest first, and when the next scheduled post goes live. */
export interface GuestReadablePosts {
  posts: FeedEntry[];
  /** The `publishedAt` of the next scheduled post, or null when none is scheduled. */
  nextScheduled: string | null;
}

/**
 * The posts live at `now` that a guest can read (`policy.canReadPublished`: the first `GUEST_PREVIEW` of the feed and
 * of each tag's feed; id and `publishedAt`, newest first), and the next scheduled post's time (which can change them),
 * read from the feed entries alone: a few short range reads, whatever the number of posts.
 */
export async function guestReadablePosts(kv: Deno.Kv, now = new Date()): Promise<GuestReadablePosts> {
  const cut = new Date(now.getTime() + 1).toISOString();
  const scheduled = async (pinned: number) => {
    const end = ["ungatekeep_feed", "all", pinned + 1];
    for await (const { key } of kv.list({ start: ["ungatekeep_feed", "all", pinned, cut], end }, { limit: 1 })) {
      return key[3] as string;
    }
    return null;
  };
  const [heads, later] = await Promise.all([
    Promise.all((["all", ...POST_TAGS] as Scope[]).map((scope) => feedHead(kv, { scope, count: GUEST_PREVIEW, now }))),
    Promise.all([scheduled(1), scheduled(0)]),
  ]);
  const posts = [...new Map(heads.flat().map((post) => [post.id, post])).values()];
  posts.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id));
  const next = later.filter((time) => time !== null).sort()[0];
  return { posts, nextScheduled: next ?? null };
}

/**
 * The `count` newest posts live at `now` (by `publishedAt`, pinned or not), as lists carry them: two reverse range
 * reads of at most `count` feed entries (pinned and not), merged.
 */
export async function latestPosts(kv: Deno.Kv, count: number, now = new Date()): Promise<PostListItem[]> {
  const cut = new Date(now.getTime() + 1).toISOString();
  const newest: { id: string; publishedAt: string }[] = [];
  for (const pinned of [1, 0]) {
    const entries = kv.list(
      { start: ["ungatekeep_feed", "all", pinned], end: ["ungatekeep_feed", "all", pinned, cut] },
      { reverse: true, limit: count },
    );
    for await (const entry of entries) newest.push({ id: entry.key[4] as string, publishedAt: entry.key[3] as string });
  }
  newest.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id));
  return await listItemsOf(kv, await postsById(kv, newest.slice(0, count).map((post) => post.id)));
}

/** Which post `viewer` reads, at `now` (default: the current time). */
export interface PostRead {
  id: string;
  viewer: Viewer;
  now?: Date;
}

/**
 * One live post by id. A guest may read only a post within the first 3 of the feed, or of the
 * feed of its tag (`policy.canReadPublished`).
 * @throws NotFoundError "Post not found" when unknown, a draft or scheduled later;
 *   UnauthenticatedError "Sign in to read this post" for a guest and any other post.
 */
export async function getPost(kv: Deno.Kv, { id, viewer, now }: PostRead): Promise<PostView> {
  return (await viewsOf(kv, [(await readablePost(kv, { id, viewer, now })).value], viewer))[0];
}

/**
 * The record of a live post `viewer` may read, as read (for a write checked against it: comments and reactions), by
 * the rules of `getPost`.
 * @throws NotFoundError "Post not found"; UnauthenticatedError "Sign in to read this post".
 */
export async function readablePost(
  kv: Deno.Kv,
  { id, viewer, now = new Date() }: PostRead,
): Promise<Deno.KvEntry<Post>> {
  const entry = await kv.get<Post>(recordKey(id));
  const post = entry.value;
  if (!post || !isLive(post, now)) throw new NotFoundError(NOT_FOUND);
  let rank: number | undefined;
  if (!viewer) {
    const [all, tagged] = await Promise.all([
      feedIds(kv, { scope: "all", count: GUEST_PREVIEW, now }),
      feedIds(kv, { scope: post.tag, count: GUEST_PREVIEW, now }),
    ]);
    const ranks = [all.indexOf(id), tagged.indexOf(id)].filter((r) => r >= 0);
    rank = ranks.length > 0 ? Math.min(...ranks) : undefined;
  }
  if (!canReadPublished(viewer, rank)) throw new UnauthenticatedError(REFUSALS.signInToRead);
  return entry as Deno.KvEntry<Post>;
}

/** The titles of the posts of `ids` that exist, by id (the admin list of comments). */
export async function postTitles(kv: Deno.Kv, ids: string[]): Promise<Map<string, string>> {
  const posts = await postsById(kv, [...new Set(ids)]);
  return new Map(posts.map((post) => [post.id, post.title]));
}

/**
 * Any post by id, drafts and scheduled ones included, for the admin area and its editor.
 * @throws NotFoundError "Post not found".
 */
export async function getPostForAdmin(kv: Deno.Kv, id: string, viewer?: Viewer): Promise<PostView> {
  const post = (await kv.get<Post>(recordKey(id))).value;
  if (!post) throw new NotFoundError(NOT_FOUND);
  return (await viewsOf(kv, [post], viewer))[0];
}

/** The newest-first time of a post in the admin list: `publishedAt`, else `createdAt`. */
function sortTime(post: Post): string {
  return post.publishedAt ?? post.createdAt;
}

/**
 * Every post for the admin list, drafts and scheduled ones included, newest (by `publishedAt`,
 * else `createdAt`) first; `tag` filters, `search` matches every word (case-insensitive) in the
 * title or the first `SEARCH_TEXT_CHARS` of the content among the newest `SEARCHED_POSTS` (`searchedNewest` says so
 * when there are more). It reads the admin index (a small entry a post), or for a search the search index (the tag and
 * that text), then the page's records only. Posts are listed as the feed lists them, with their excerpt, not rendered
 * (`getPostForAdmin` renders one).
 */
export async function listPostsForAdmin(kv: Deno.Kv, query: AdminPostQuery): Promise<AdminPostPage> {
  const words = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const { limit, offset } = query;
  let searchedNewest: number | null = null;
  const ids: string[] = [];
  const options = { reverse: true, batchSize: LIST_BATCH };
  if (words.length === 0) {
    for await (const { key, value } of kv.list<PostTag>({ prefix: ["ungatekeep_admin"] }, options)) {
      if (!query.tag || value === query.tag) ids.push(key[2] as string);
    }
  } else {
    let searched = 0;
    const entries = kv.list<AdminSearchEntry>({ prefix: ["ungatekeep_admin_search"] }, options);
    for await (const { key, value } of entries) {
      if (query.tag && value.tag !== query.tag) continue;
      if (searched++ === SEARCHED_POSTS) {
        searchedNewest = SEARCHED_POSTS;
        break;
      }
      if (words.every((word) => value.text.includes(word))) ids.push(key[2] as string);
    }
  }
  const records = await getManyChunked<Post>(kv, ids.slice(offset, offset + limit).map(recordKey));
  const page = records.flatMap((entry) => entry.value ? [entry.value] : []);
  const total = ids.length;
  return {
    posts: await listItemsOf(kv, page),
    pagination: { limit, offset, total, hasMore: offset + page.length < total },
    searchedNewest,
  };
}

/** KV's largest list batch. */
const LIST_BATCH = 500;

/** Where the pass before the search index kept its cursor: deleted by the write that ends this one. */
const FIRST_INDEX_PROGRESS: Deno.KvKey = ["ungatekeep_meta", "admin_index"];

/** The posts stored before the admin indexes, indexed (see the module docstring): 50 posts a write. */
const ADMIN_INDEX_BACKFILL: Backfill<Post> = {
  progressKey: ["ungatekeep_meta", "admin_search_index"],
  prefix: POSTS_PREFIX,
  page: 50,
  write: (op, { value }) => setAdminEntries(op, value),
  finish: (op) => op.delete(FIRST_INDEX_PROGRESS),
};

/**
 * The `posts-admin-index` job (`runBackfill`; docs/decisions.md, Background work, "Index backfills"): every 5 minutes
 * until the posts stored before the admin index are indexed; answers how many posts a run indexed.
 */
export const postsAdminIndexJob: Job = {
  name: "posts-admin-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ indexed: (await runBackfill(ctx.kv, ADMIN_INDEX_BACKFILL, ctx.requests)).read }),
};

const AUTHOR_INDEX_PROGRESS: Deno.KvKey = ["ungatekeep_meta", "author_index"];

/**
 * The posts stored before the index of posts by author, indexed (see the module docstring): 50 posts a write (at most
 * 64 KB each as listed).
 */
const AUTHOR_INDEX_BACKFILL: Backfill<Post> = {
  progressKey: AUTHOR_INDEX_PROGRESS,
  prefix: POSTS_PREFIX,
  page: 50,
  write: (op, { value }) => {
    if (value.userId) op.set(authorKey(value.userId, value.id), null);
  },
};

/**
 * The `posts-author-index` job (`runBackfill`; docs/decisions.md, Background work, "Index backfills"): every 5 minutes
 * until the posts stored before the index of posts by author are indexed (then one read a run); answers how many posts
 * a run indexed.
 */
export const postsAuthorIndexJob: Job = {
  name: "posts-author-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ indexed: (await runBackfill(ctx.kv, AUTHOR_INDEX_BACKFILL, ctx.requests)).read }),
};

/** `publishedAt` after a write: kept when given; the moment of publishing for a post that becomes published without one. */
function publishedAtOf(
  { isPublished, given, previous, now }: {
    isPublished: boolean;
    given: string | null | undefined;
    previous: string | null;
    now: string;
  },
) {
  const value = given === undefined ? previous : given;
  return isPublished && !value ? now : value;
}

/**
 * Refuses a post whose record would not fit one KV value, counted by `valueBytes` (docs/decisions.md, Ungatekeep and
 * banners, "Post size"): content within `MAX_CONTENT_LENGTH` fits unless its links and title are long too.
 * @throws InvalidInputError `REFUSALS.postTooLong`, at `content`.
 */
function assertFits(post: Post): void {
  if (valueBytes(post) <= KV_VALUE_MAX_BYTES) return;
  throw new InvalidInputError(REFUSALS.postTooLong, [fieldProblem("content", { key: "fields.postTooLong" })]);
}

/** The fields whose text a post's size depends on: an update giving none of them leaves the size as it was. */
const TEXT_FIELDS = ["title", "content", "images", "linkUrl", "linkTitle", "linkImage"] as const;

/**
 * Creates a post by `author` (an admin), with `audit`'s entry in the same write.
 * @throws InvalidInputError "Unknown image" when an image id is not an upload, or `postTooLong`.
 */
export async function createPost(
  kv: Deno.Kv,
  { files, author, input, audit }: { files: ObjectStore; author: User; input: PostCreate; audit?: AuditHook },
): Promise<PostView> {
  await assertUploaded(files, input.images);
  const now = new Date().toISOString();
  const post: Post = {
    id: crypto.randomUUID(),
    title: input.title,
    content: input.content,
    images: input.images,
    linkUrl: input.linkUrl ?? null,
    linkTitle: input.linkTitle ?? null,
    linkImage: input.linkImage ?? null,
    tag: input.tag,
    isPinned: input.isPinned,
    isPublished: input.isPublished,
    publishedAt: publishedAtOf({ isPublished: input.isPublished, given: input.publishedAt, previous: null, now }),
    createdAt: now,
    updatedAt: now,
    userId: author.id,
  };
  assertFits(post);
  const op = postOps(kv, await kv.get<Post>(recordKey(post.id)), post);
  audit?.(op, post.id, post.title);
  if (!(await op.commit()).ok) throw new Error("Post id collision");
  return (await viewsOf(kv, [post]))[0];
}

/**
 * What `updatePost` takes: a patch that may change `images` comes with the `log` a failed delete of a dropped image is
 * told to; one that leaves them (a report's "hide") needs none. `audit`, an admin's edit, is logged in the same write
 * (with any checks it adds); `onLostRace` "give-up" ends the call on a lost race instead of trying again.
 */
export type PostChange =
  & { files: ObjectStore; id: string; audit?: AuditHook; onLostRace?: OnLostRace }
  & ({ patch: PostUpdate; log: Logger } | { patch: PostUpdate & { images?: undefined }; log?: undefined });

/**
 * Applies `patch` (only the fields given) to a post, with `audit`'s entry in the same write; `PUT` and `PATCH` alike. A
 * patch of any text field is checked to fit (`assertFits`); one that only pins or publishes leaves a post stored
 * before that bound as it was. The images the patch drops are deleted from the object store after the commit, those
 * no banner, other post, toolkit cover or lesson names (`deleteUnusedImages`)
 * (docs/decisions.md, Ungatekeep and banners, "Images"), as `deletePost` deletes a post's: one the store fails to
 * delete is logged and left, never failing the edit.
 * @throws NotFoundError "Post not found"; InvalidInputError for an image id that is not an upload, or `postTooLong`;
 *   RaceLost for a lost race with `onLostRace` "give-up" (nothing changed).
 */
export async function updatePost(
  kv: Deno.Kv,
  { files, log, id, patch, audit, onLostRace }: PostChange,
): Promise<PostView> {
  if (patch.images) await assertUploaded(files, patch.images);
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as PostUpdate;
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const entry = await kv.get<Post>(recordKey(id));
    if (!entry.value) throw new NotFoundError(NOT_FOUND);
    const now = new Date().toISOString();
    const merged: Post = { ...entry.value, ...changes, updatedAt: now };
    merged.publishedAt = publishedAtOf({
      isPublished: merged.isPublished,
      given: changes.publishedAt,
      previous: entry.value.publishedAt,
      now,
    });
    if (TEXT_FIELDS.some((field) => changes[field] !== undefined)) assertFits(merged);
    const op = postOps(kv, entry, merged);
    audit?.(op, id, merged.title);
    if ((await op.commit()).ok) {
      const dropped = entry.value.images.filter((image) => !merged.images.includes(image));
      // A patch without `log` has no `images` (`PostChange`), so it drops none.
      if (log && dropped.length > 0) {
        await deleteUnusedImages(kv, { files, log }, dropped, { message: "post image not deleted", postId: id });
      }
      return (await viewsOf(kv, [merged]))[0];
    }
    if (onLostRace === "give-up") throw new RaceLost();
  }
  throw new Error("Post update lost too many races");
}

/**
 * A post's deletion under way: the images still to delete, and the lease of the process finishing it (`Claimable`:
 * the request that started it, or the `post-deletions` job once that lease ran out).
 */
interface PostDeletion extends Claimable {
  images: string[];
}

const deletionKey = (id: string): Deno.KvKey => ["post_deletions", id];

/** How long a process finishing a post's deletion holds it (ms): far beyond the few seconds a large one takes. */
const DELETION_LEASE_MS = 10 * 60 * 1000;

/** At most this many stopped deletions are finished per run of the `post-deletions` job. */
const DELETIONS_PER_RUN = 20;

/**
 * Deletes a post for good (docs/decisions.md, Ungatekeep and banners, "Deleting a post"). The write that removes the
 * post, checked against the record as read, also writes its deletion record (`["post_deletions", id]`, naming its
 * images, leased for `DELETION_LEASE_MS`); then its comments, reactions, counters and reply notifications go
 * (`deleteConversation`, in bounded writes), then its images, each on its own (`Promise.allSettled`: one the object
 * store fails to delete is logged with `log` and left stored), and last the deletion record. A deletion that throws
 * midway (a KV error) gives its lease back: deleting the post again claims its record and finishes it, and so does the
 * `post-deletions` job once a lease ran out (the process gone). While another deletion of the post holds the lease,
 * this one does nothing and throws as for a post already gone, so two at once never move its counters twice.
 * `audit`'s entry (and checks) is in the write that removes the post (none when finishing a deletion under way); that
 * write is tried again after a lost race, or with `onLostRace` "give-up" the call ends. The same write resolves the
 * post's first open reports as removed by an admin, the rest right after it (`removalOps`, `finishRemoval`), unless
 * `reportsResolved` (the caller resolves them: `resolveTarget`); the reports of its comments are resolved as removed
 * with the post before they go (`deleteConversation`; docs/decisions.md, Trust, "Reports of what is removed").
 * @throws NotFoundError "Post not found" (no post, and no stopped deletion of it to finish); RaceLost for a lost race of
 *   the write that removes the post with `onLostRace` "give-up" (nothing changed); BusyError when its reports' writes
 *   kept losing races (the `post-deletions` and `report-removals` jobs go on).
 */
export async function deletePost(
  kv: Deno.Kv,
  { files, log, id, audit, onLostRace, reportsResolved = false }: {
    files: ObjectStore;
    log: Logger;
    id: string;
    audit?: AuditHook;
    onLostRace?: OnLostRace;
    reportsResolved?: boolean;
  },
): Promise<void> {
  let claimed: Deno.KvEntry<PostDeletion> | null = null;
  let reportsLeft = false;
  for (let attempt = 0; attempt < MAX_RETRIES && claimed === null; attempt++) {
    const [[entry, pending], reports] = await Promise.all([
      kv.getMany<[Post, PostDeletion]>([recordKey(id), deletionKey(id)]),
      reportsResolved ? null : openReportsOf(kv, { kind: "post", targetId: id }),
    ]);
    const now = claimTime(Date.now());
    if (entry.value) {
      const deletion: PostDeletion = {
        images: entry.value.images,
        lease: { holder: HOLDER, until: now + DELETION_LEASE_MS },
      };
      const op = postOps(kv, entry, null).set(deletionKey(id), deletion);
      audit?.(op, id, entry.value.title);
      if (reports) reportsLeft = removalOps(op, reports, { by: "admin", at: new Date(now).toISOString() });
      const result = await op.commit();
      if (result.ok) claimed = { key: deletionKey(id), value: deletion, versionstamp: result.versionstamp };
      else if (onLostRace === "give-up") throw new RaceLost();
    } else if (pending.value && !isLeased(pending.value, now)) {
      claimed = await claim(kv, pending, { now, leaseMs: DELETION_LEASE_MS });
    } else throw new NotFoundError(NOT_FOUND);
  }
  if (claimed === null) throw new Error("Post delete lost too many races");
  try {
    if (reportsLeft) await finishRemoval(kv, "post", id);
    await finishDeletion(kv, { files, log, claimed });
  } catch (error) {
    // Given back so that deleting again finishes it at once; a write that fails too leaves the lease to run out.
    await kv.atomic().check(claimed).set(claimed.key, { ...claimed.value, lease: null }).commit().catch(() => {});
    throw error;
  }
}

/**
 * The rest of a post's deletion after its record is gone, under the lease of `claimed` (its deletion record as
 * claimed): conversation, images, then the deletion record, checked against the claim (one taken over after the lease
 * ran out is left to whoever took it).
 */
async function finishDeletion(
  kv: Deno.Kv,
  { files, log, claimed }: { files: ObjectStore; log: Logger; claimed: Deno.KvEntry<PostDeletion> },
): Promise<void> {
  const id = claimed.key[1] as string;
  await deleteConversation(kv, id);
  await deleteUnusedImages(kv, { files, log }, claimed.value.images, { message: "post image not deleted", postId: id });
  await kv.atomic().check(claimed).delete(claimed.key).commit();
}

/**
 * Finishes the post deletions that stopped midway (docs/decisions.md, Ungatekeep and banners, "Deleting a post"): of
 * the first `DELETIONS_PER_RUN` records under `["post_deletions"]`, each whose lease ran out at `now` is claimed
 * (`claim`, so two runners never work on one) and finished as `deletePost` does. Returns how many it finished.
 * @throws what a KV write throws (a deletion then stays, for the next run).
 */
export async function finishPostDeletions(
  { kv, files, log }: { kv: Deno.Kv; files: ObjectStore; log: Logger },
  now: Date,
): Promise<number> {
  let finished = 0;
  for await (const entry of kv.list<PostDeletion>({ prefix: ["post_deletions"] }, { limit: DELETIONS_PER_RUN })) {
    const claimed = await claim(kv, entry, { now: claimTime(now.getTime()), leaseMs: DELETION_LEASE_MS });
    if (!claimed) continue;
    await finishDeletion(kv, { files, log, claimed });
    finished++;
  }
  return finished;
}

/** The `post-deletions` job: every 5 minutes, finishes the post deletions that stopped midway (`finishPostDeletions`). */
export const postDeletionsJob: Job = {
  name: "post-deletions",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ finished: await finishPostDeletions(ctx, ctx.now) }),
};
