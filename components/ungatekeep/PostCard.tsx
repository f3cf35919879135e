/**
 * One post in the Ungatekeep feed (docs/api.md, Ungatekeep, "Cards"): thumbnail, title linking to
 * the post, two-line excerpt, creator, relative date (exact date on hover), tag label and pin
 * marker, and the comment and reaction counts (the same for every reader: nothing personal).
 */
import type { PostListItem } from "@/lib/ungatekeep/schema.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { relativeTime } from "@/lib/browser/post_format.ts";
import { REACTION_TYPES } from "@/lib/comments/limits.ts";
import { useT } from "@/lib/i18n/context.ts";
import { ReactionIcon } from "./ReactionIcon.tsx";
import { thumbnailOf } from "@/lib/browser/post_format.ts";

/** The comment count and reaction counts of a post, linking to its discussion. */
export function EngagementSummary({ post }: { post: Pick<PostListItem, "id" | "commentCount" | "reactions"> }) {
  const t = useT();
  return (
    <p class="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
      <a href={`/ungatekeep/${post.id}#discussion-title`} class="underline hover:text-indigo-700">
        {t("ungatekeep.card.comments", { count: post.commentCount })}
      </a>
      {REACTION_TYPES.map((type) => {
        const name = t.dynamic(`ungatekeep.reaction.${type}`);
        return (
          <span key={type} class="inline-flex items-center gap-1" title={name}>
            <ReactionIcon type={type} /> {post.reactions[type]}
            <span class="sr-only">{` ${name}`}</span>
          </span>
        );
      })}
    </p>
  );
}

/** The post's date: relative, in the catalogue's words, with the exact one in `title` and `datetime`. */
export function PostDate({ iso, now }: { iso: string; now?: Date }) {
  const t = useT();
  const relative = relativeTime(iso, now);
  return (
    <time dateTime={iso} title={t.dateTime(iso)}>
      {relative
        ? t.dynamic(`ungatekeep.card.${relative.past ? "ago" : "in"}.${relative.unit}`, { count: relative.count })
        : t("ungatekeep.card.justNow")}
    </time>
  );
}

/** The pin marker of a pinned post. */
export function PinMarker() {
  const t = useT();
  return (
    <span class="inline-flex items-center gap-1 text-xs font-semibold text-amber-900">
      <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-current">
        <path d="M12.5 2 18 7.5l-1.4 1.4-1-1-3.2 3.2.6 3.9-1.4 1.4-3-3L4 17.1 2.9 16l3.7-3.6-3-3 1.4-1.4 3.9.6 3.2-3.2-1-1Z" />
      </svg>
      {t("ungatekeep.card.pinned")}
    </span>
  );
}

/** A post in the feed; `firstScreen`: it shows without scrolling, so its thumbnail loads at once (else when near). */
export function PostCard(
  { post, now, firstScreen = false }: { post: PostListItem; now?: Date; firstScreen?: boolean },
) {
  const t = useT();
  const thumbnail = thumbnailOf(post);
  return (
    <article class="flex gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      {thumbnail && (
        <img
          src={thumbnail}
          alt=""
          loading={firstScreen ? "eager" : "lazy"}
          class="h-20 w-20 shrink-0 rounded-md object-cover bg-slate-100 sm:h-24 sm:w-32"
        />
      )}
      <div class="min-w-0 flex-1">
        <div class="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{t.dynamic(`ungatekeep.tag.${post.tag}`)}</Badge>
          {post.isPinned && <PinMarker />}
        </div>
        <h2 class="mt-1 text-lg font-semibold text-slate-900">
          <a href={`/ungatekeep/${post.id}`} class="hover:text-indigo-700 hover:underline">{post.title}</a>
        </h2>
        <p class="mt-1 line-clamp-2 whitespace-pre-line text-slate-700">{post.excerpt}</p>
        <p class="mt-2 text-sm text-slate-700">
          {post.creator?.name ?? t("common.formerMember")} ·{" "}
          <PostDate iso={post.publishedAt ?? post.createdAt} now={now} />
        </p>
        <EngagementSummary post={post} />
      </div>
    </article>
  );
}

/** The link preview of a post: a card with its image, title and host, opening in a new tab. */
export function LinkCard({ url, title, image }: { url: string; title: string | null; image: string | null }) {
  const t = useT();
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    host = url;
  }
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      class="flex items-center gap-4 rounded-lg border border-slate-200 bg-white p-3 shadow-sm hover:border-indigo-400"
    >
      {image && <img src={image} alt="" class="h-16 w-16 shrink-0 rounded object-cover bg-slate-100" />}
      <span class="min-w-0">
        <span class="block font-medium text-slate-900">{title ?? host}</span>
        <span class="block truncate text-sm text-slate-700">{t("ungatekeep.card.newTab", { host })}</span>
      </span>
    </a>
  );
}
