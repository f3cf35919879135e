/**
 * `/admin/comments`: every live comment on Ungatekeep posts, newest first, in the comments table island (search, go
 * to the post, delete). Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Comments and reactions.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminCommentsTable, { ADMIN_COMMENTS_TEXT, type CommentRow } from "@/islands/AdminCommentsTable.tsx";
import { listCommentsForAdmin, type Pagination } from "@/lib/comments/comments.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  rows: CommentRow[];
  pagination: Pagination;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const page = await listCommentsForAdmin(ctx.state.services.kv, ctx.state.user, { limit: 50, offset: 0 });
    return ctx.render({
      rows: page.comments.map(({ id, postId, parentId, content, createdAt, user, post }) => ({
        id,
        postId,
        parentId,
        content,
        createdAt,
        user: user && { name: user.name },
        post,
      })),
      pagination: page.pagination,
    });
  },
});

export default define.page<Data>(function AdminCommentsPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.comments") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.comments")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.comments.lead")}</p>
      </div>
      <AdminCommentsTable initial={data.rows} pagination={data.pagination} text={t.island(ADMIN_COMMENTS_TEXT)} />
    </section>
  );
});
