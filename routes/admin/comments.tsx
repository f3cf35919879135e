/**
 * `/admin/comments`: every live comment on Ungatekeep posts, newest first, in the comments table island (search, go
 * to the post, delete). Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Comments and reactions.
 * The server renders the page its query asks for (`search`, `offset`; a value the list refuses gives the first page),
 * so the search (a `GET` form) and Previous and Next (links) work without JavaScript.
 * Without JavaScript a row's "Delete" is a link to `?delete={id}`, this page with a confirmation naming that comment,
 * whose plain form (docs/decisions.md, Islands, "Forms work without JavaScript") `POST`s `intent` `delete` and `id`:
 * the comment is deleted as `DELETE /api/ungatekeep/comments/{id}` does, 303 to `?deleted=1`, or the page again with
 * the refusal's sentence (400, 404, 503). The link, the form and Cancel keep the list's `search` and `offset`
 * (docs/decisions.md, Islands, "A row's way back keeps the list").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import AdminCommentsTable, {
  ADMIN_COMMENTS_TEXT,
  clipComment,
  type CommentRow,
} from "@/islands/AdminCommentsTable.tsx";
import {
  AdminCommentQuerySchema,
  listCommentsForAdmin,
  type Pagination,
  removeComment,
} from "@/lib/comments/comments.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import type { User } from "@/lib/users/users.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  rows: CommentRow[];
  pagination: Pagination;
  /** The search the page answers ("": none). */
  search: string;
  /** How many newest comments a search looked through, when it stopped there; else null. */
  searchedNewest: number | null;
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused delete's sentence; "" for none. */
  error: string;
  /** The comment whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: CommentRow;
  /** The list's view its plain forms return to (`viewOf`). */
  back: ListView;
}

/** The search and page of the list, as its address gave them (the page checks them when it is read again). */
type ListView = { search: string | null; offset: string | null };

/** The view of the list a plain form was posted from or a page shows, from its address. */
function viewOf(params: URLSearchParams): ListView {
  return { search: params.get("search"), offset: params.get("offset") };
}

/** The delete form's fields: a comment id (ids are UUIDs; a longer one names no comment). */
const deleteFormSchema = z.object({ intent: z.literal("delete"), id: z.string().min(1).max(100) });

/**
 * The page of the table `params` ask for (`search`, `offset`) as `admin` may read it; with a value the list refuses,
 * the first page.
 */
async function pageOf(
  kv: Deno.Kv,
  admin: User,
  params: URLSearchParams,
): Promise<Pick<Data, "rows" | "pagination" | "search" | "searchedNewest">> {
  const given = (name: string) => params.get(name) || undefined;
  const parsed = AdminCommentQuerySchema.safeParse({ search: given("search"), offset: given("offset") });
  const query = parsed.success ? parsed.data : AdminCommentQuerySchema.parse({});
  const page = await listCommentsForAdmin(kv, admin, query);
  return {
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
    search: query.search ?? "",
    searchedNewest: page.searchedNewest ?? null,
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const params = ctx.url.searchParams;
    const page = await pageOf(ctx.state.services.kv, ctx.state.user, params);
    const notice = params.get("deleted") === "1" ? ctx.state.t("admin.comments.deletedDone") : "";
    const doomed = page.rows.find((row) => row.id === params.get("delete"));
    return ctx.render({ ...page, notice, error: "", doomed, back: viewOf(params) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services, t, user } = ctx.state;
    const form = deleteFormSchema.safeParse(await readFormFields(req, ["intent", "id"]));
    try {
      if (!form.success) throw new NotFoundError(REFUSALS.commentNotFound);
      await removeComment(services.kv, form.data.id, user);
      return seeOther(listAddress("/admin/comments", viewOf(ctx.url.searchParams), { deleted: "1" }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = form.success ? errorResponse(error).status : 400;
      const page = await pageOf(services.kv, user, ctx.url.searchParams);
      return ctx.render({ ...page, notice: "", error: refusalText(t, error), back: viewOf(ctx.url.searchParams) }, {
        status,
      });
    }
  },
});

export default define.page<Data>(function AdminCommentsPage({ data }) {
  const t = useT();
  const { doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.comments") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.comments")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.comments.lead")}</p>
      </div>
      {data.notice && <Notice kind="success" title={data.notice} />}
      {data.error && <Notice kind="error" title={t("admin.comments.notDeletedTitle")}>{data.error}</Notice>}
      {doomed && (
        <DeleteConfirmation
          id="delete-comment"
          title={t("admin.comments.deleteTitle")}
          text={t("admin.comments.deleteText", { content: clipComment(doomed.content) })}
          action={listAddress("/admin/comments", data.back)}
          fields={{ intent: "delete", id: doomed.id }}
          cancelHref={listAddress("/admin/comments", data.back)}
        />
      )}
      <AdminCommentsTable
        initial={data.rows}
        pagination={data.pagination}
        search={data.search}
        searchedNewest={data.searchedNewest}
        text={t.island(ADMIN_COMMENTS_TEXT)}
      />
    </section>
  );
});
