/**
 * `/ungatekeep`: the feed (docs/api.md, Ungatekeep, "Feed", docs/decisions.md, Ungatekeep and banners). The banner
 * carousel at the top, a tag filter, the post cards (pinned first, then newest), and for a guest the first 3 cards
 * followed by a sign-in prompt stating how many posts are hidden. Signed-in users page through every published
 * post. An unknown tag or offset is ignored; a page past the end is 404 (docs/decisions.md, Guest pages, "Pages past
 * the end").
 */
import { define } from "@/lib/platform/define.ts";
import { alignedOffset, assertWithinList } from "@/lib/http/list_pages.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { PostCard } from "@/components/ungatekeep/PostCard.tsx";
import BannerCarousel, { BANNER_CAROUSEL_TEXT } from "@/islands/BannerCarousel.tsx";
import { type BannerSlide, bannerSlide, listBanners } from "@/lib/ungatekeep/banners.ts";
import { isPreviewOnly } from "@/lib/ungatekeep/policy.ts";
import { DEFAULT_FEED_LIMIT, type FeedPage, FeedQuerySchema, listFeed } from "@/lib/ungatekeep/posts.ts";
import { POST_TAGS, type PostTag } from "@/lib/ungatekeep/tags.ts";
import { useT } from "@/lib/i18n/context.ts";

/** Posts that can show in the first screen (on a wide screen without banners), whose thumbnails load at once. */
const FIRST_SCREEN_POSTS = 3;

interface Data {
  tag: PostTag | undefined;
  offset: number;
  feed: FeedPage;
  banners: BannerSlide[];
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const tag = FeedQuerySchema.shape.tag.safeParse(params.get("tag") ?? undefined).data;
    const offset = FeedQuerySchema.shape.offset.safeParse(params.get("offset") ?? undefined).data ?? 0;
    const { kv } = ctx.state.services;
    const [feed, banners] = await Promise.all([
      listFeed(kv, { query: { tag, offset, limit: DEFAULT_FEED_LIMIT }, viewer: ctx.state.user }),
      listBanners(kv, true),
    ]);
    assertWithinList(offset, feed.total);
    return ctx.render({
      tag,
      offset,
      feed,
      banners: banners.map(bannerSlide),
    });
  },
});

function href(tag: PostTag | undefined, offset = 0): string {
  const params = new URLSearchParams();
  if (tag) params.set("tag", tag);
  if (offset > 0) params.set("offset", String(offset));
  const query = params.toString();
  return query ? `/ungatekeep?${query}` : "/ungatekeep";
}

function GuestPrompt({ hidden, callbackURL }: { hidden: number; callbackURL: string }) {
  const t = useT();
  const back = encodeURIComponent(callbackURL);
  return (
    <section
      aria-labelledby="guest-prompt"
      class="rounded-lg border border-indigo-200 bg-indigo-50 p-6 text-center"
    >
      <h2 id="guest-prompt" class="text-lg font-semibold text-slate-900">
        {t("ungatekeep.feed.hidden", { count: hidden })}
      </h2>
      <p class="mt-1 text-slate-700">{t("ungatekeep.feed.signInToRead")}</p>
      <div class="mt-4 flex justify-center gap-3">
        <a
          href={`/sign-in?callbackURL=${back}`}
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("ungatekeep.feed.signIn")}
        </a>
        <a
          href="/sign-up"
          class="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
        >
          {t("ungatekeep.feed.signUp")}
        </a>
      </div>
    </section>
  );
}

export default define.page<Data>(function UngatekeepPage({ data, state }) {
  const t = useT();
  const { tag, offset, feed, banners } = data;
  const tagName = (value: PostTag) => t.dynamic(`ungatekeep.tag.${value}`);
  const guest = isPreviewOnly(state.user);
  const now = new Date();
  return (
    <div class="space-y-6">
      <PageHead
        title={tag ? `Ungatekeep: ${tagName(tag)}` : "Ungatekeep"}
        description={t("ungatekeep.feed.description")}
        feeds={[{ title: t("ungatekeep.feed.rss"), href: "/ungatekeep/rss.xml" }]}
        canonical={href(tag, alignedOffset(offset, DEFAULT_FEED_LIMIT))}
      />
      {banners.length > 0 && <BannerCarousel banners={banners} text={t.island(BANNER_CAROUSEL_TEXT)} />}
      <div>
        <h1 class="text-3xl font-bold tracking-tight text-slate-900">Ungatekeep</h1>
        <p class="mt-2 text-slate-700">{t("ungatekeep.feed.lead")}</p>
      </div>
      <nav aria-label={t("ungatekeep.feed.byTag")}>
        <ul class="flex flex-wrap gap-2">
          {[undefined, ...POST_TAGS].map((value) => (
            <li key={value ?? "all"}>
              <a
                href={href(value)}
                aria-current={value === tag ? "page" : undefined}
                class="block rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-800 hover:bg-slate-100 aria-[current=page]:border-indigo-700 aria-[current=page]:bg-indigo-700 aria-[current=page]:text-white"
              >
                {value ? tagName(value) : t("ungatekeep.feed.all")}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {feed.posts.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-700">
            {t("ungatekeep.feed.none")}
          </p>
        )
        : (
          <ul class="space-y-4" aria-label={t("ungatekeep.feed.posts")}>
            {feed.posts.map((post, index) => (
              <li key={post.id}>
                <PostCard post={post} now={now} firstScreen={index < FIRST_SCREEN_POSTS} />
              </li>
            ))}
          </ul>
        )}
      {guest && feed.hiddenCount > 0 && <GuestPrompt hidden={feed.hiddenCount} callbackURL={href(tag)} />}
      {!guest && (
        <Pagination
          position={pagePosition(null, offset, feed.posts.length, feed.total)}
          prev={offset > 0 ? { href: href(tag, Math.max(0, offset - DEFAULT_FEED_LIMIT)) } : null}
          next={offset + feed.posts.length < feed.total ? { href: href(tag, offset + DEFAULT_FEED_LIMIT) } : null}
        />
      )}
    </div>
  );
});
