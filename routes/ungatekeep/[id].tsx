/**
 * `/ungatekeep/{id}`: one post with its rendered content, images and link card (docs/decisions.md, Ungatekeep and banners),
 * then its reactions and comment thread (the `PostDiscussion` island, rendered here for readers and search engines;
 * docs/decisions.md, Comments and reactions).
 * A draft, a post scheduled later or an unknown id is the 404 page (admins see drafts and
 * scheduled posts here, marked as such, to check them before publishing); a guest asking for a
 * post beyond the preview is sent to sign in and back.
 */
import { PostBody } from "@/components/ungatekeep/PostBody.tsx";
import { define } from "@/lib/platform/define.ts";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { LinkCard, PinMarker, PostDate } from "@/components/ungatekeep/PostCard.tsx";
import { canManagePosts } from "@/lib/ungatekeep/policy.ts";
import { getPost, getPostForAdmin, isLive, type PostView } from "@/lib/ungatekeep/posts.ts";
import { TAG_LABELS } from "@/lib/ungatekeep/tags.ts";
import { postArticle, postImages } from "@/lib/seo/json_ld.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import { type CommentPage, listComments } from "@/lib/comments/comments.ts";
import { canComment, canModerate } from "@/lib/comments/policy.ts";
import PostDiscussion from "@/islands/PostDiscussion.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";

interface Data {
  post: PostView;
  /** The first page of comments; null for a draft or scheduled post (an admin's preview). */
  discussion: CommentPage | null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const { user } = ctx.state;
    const post = canManagePosts(user)
      ? await getPostForAdmin(kv, ctx.params.id, user)
      : await getPost(kv, { id: ctx.params.id, viewer: user });
    const discussion = isLive(post)
      ? await listComments(kv, { postId: post.id, viewer: user, query: { limit: 20, offset: 0 } })
      : null;
    return ctx.render({ post, discussion });
  },
});

export default define.page<Data>(function PostPage({ data: { post, discussion }, state }) {
  const live = isLive(post);
  const { user } = state;
  return (
    <article aria-labelledby="page-title" class="[overflow-wrap:anywhere] mx-auto max-w-3xl">
      <PageHead
        title={post.title}
        description={post.excerpt}
        image={postImages(post, state.services.config.appUrl)[0]}
        type="article"
        jsonLd={live ? postArticle(post, state.services.config.appUrl) : null}
        feeds={[{ title: "Ungatekeep posts", href: "/ungatekeep/rss.xml" }]}
      />
      <a href="/ungatekeep" class="text-sm text-indigo-700 underline hover:text-indigo-900">← All posts</a>
      {!live && (
        <div class="mt-4">
          <Notice kind="info" title={post.isPublished ? "Scheduled" : "Draft"}>
            Only admins see this post until it is published.
          </Notice>
        </div>
      )}
      <header class="mt-4">
        <div class="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{TAG_LABELS[post.tag]}</Badge>
          {post.isPinned && <PinMarker />}
        </div>
        <h1 id="page-title" class="mt-2 text-3xl font-bold tracking-tight text-slate-900">{post.title}</h1>
        <p class="mt-1 text-slate-700">
          By {post.creator?.name ?? FORMER_MEMBER} · <PostDate iso={post.publishedAt ?? post.createdAt} />
        </p>
        {canManagePosts(user) && (
          <a href={`/admin/ungatekeep/${post.id}`} class="mt-2 inline-block text-sm text-indigo-700 underline">
            Edit post
          </a>
        )}
      </header>
      {post.images.length > 0 && (
        <div class="mt-6 grid gap-3 sm:grid-cols-2">
          {post.images.map((id, i) => (
            <img
              key={id}
              src={`/api/files/${id}`}
              alt={`Image ${i + 1} of ${post.images.length} for “${post.title}”`}
              class="w-full rounded-lg border border-slate-200 bg-slate-100 object-cover"
            />
          ))}
        </div>
      )}
      <PostBody class="mt-6" html={post.contentHtml} />
      {post.linkUrl && (
        <div class="mt-6">
          <LinkCard url={post.linkUrl} title={post.linkTitle} image={post.linkImage} />
        </div>
      )}
      {live && (
        <div class="mt-6">
          <ReportControl
            kind="post"
            id={post.id}
            back={`/ungatekeep/${post.id}`}
            label="Report this post"
            signedIn={Boolean(user)}
          />
        </div>
      )}
      {discussion && (
        <PostDiscussion
          postId={post.id}
          comments={discussion.comments}
          pagination={discussion.pagination}
          reactions={post.reactions}
          myReactions={post.myReactions ?? []}
          viewer={user ? { id: user.id, isAdmin: canModerate(user), canComment: canComment(user) } : null}
          signInHref={`/sign-in?callbackURL=${encodeURIComponent(`/ungatekeep/${post.id}`)}`}
        />
      )}
    </article>
  );
});
