/**
 * `/admin/ungatekeep`: every post, drafts and scheduled ones included, in the posts table island
 * (search, tag filter, publish and pin switches, delete), with a link to write a new post; after the editor saves
 * one (`?saved={id}`), a notice names it with a link to its page.
 * Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Ungatekeep and banners.
 *
 * Without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript") a row's switches and its Save button
 * are a plain form and its Delete a link to `?delete={id}`, this page with a confirmation naming that post; `POST`
 * takes them by `intent`: `update` (`id`, `isPublished` and `isPinned` `true` when ticked, each with its drawn value as
 * `was_isPublished`, `was_isPinned`) saves the switches its admin changed (`changedSwitches`) as
 * `PATCH /api/admin/ungatekeep/{id}` does, 303 to `?updated={id}`; `delete` (`id`) deletes the post, 303 to
 * `?deleted=1`. A refused one renders the page again with its sentence (400, 404). `?search=` and `?tag=` (the search's
 * `GET` form) render the posts that match (a value the list refuses gives every post); the row forms, the Delete link,
 * its confirmation, Cancel and the 303s keep them (docs/decisions.md, Islands, "A row's way back keeps the list").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import UngatekeepPostsTable, { type PostRow, POSTS_TABLE_TEXT } from "@/islands/UngatekeepPostsTable.tsx";
import { deletePost, listPostsForAdmin, updatePost } from "@/lib/ungatekeep/posts.ts";
import { AdminPostQuerySchema } from "@/lib/ungatekeep/schema.ts";
import type { PostTag } from "@/lib/ungatekeep/tags.ts";
import { adminAudit, adminAuditOfChange } from "@/lib/http/admin_audit.ts";
import { changedSwitches, readFormFields, seeOther, switchFields } from "@/lib/http/form_posts.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  rows: PostRow[];
  /** The search ("": none) and tag ("": every tag) the rows answer, and how many newest posts a search looked through
   * when it stopped there (else null). */
  search: string;
  tag: PostTag | "";
  searchedNewest: number | null;
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused form's sentence; "" for none. */
  error: string;
  /** The post whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: PostRow;
}

/** A row's switches, each posted with the value its page was drawn with (`was_{name}`). */
const SWITCHES = ["isPublished", "isPinned"] as const;
const ROW_SWITCHES = switchFields(SWITCHES);

/** A row's form: its intent and post id (ids are UUIDs; a longer one names no post), and the two switches. */
const rowFormSchema = z.object({
  intent: z.enum(["update", "delete"]),
  id: z.string().min(1).max(100),
  ...ROW_SWITCHES.shape,
});

/** The rows `params` ask for (`search`, `tag`); with a value the list refuses, every post's. */
async function rowsOf(
  kv: Deno.Kv,
  params = new URLSearchParams(),
): Promise<Pick<Data, "rows" | "search" | "tag" | "searchedNewest">> {
  const given = (name: string) => params.get(name) || undefined;
  const parsed = AdminPostQuerySchema.safeParse({ search: given("search"), tag: given("tag"), limit: "100" });
  const query = parsed.success ? parsed.data : AdminPostQuerySchema.parse({ limit: "100" });
  const { posts, searchedNewest } = await listPostsForAdmin(kv, query);
  const rows = posts.map(({ id, title, tag, isPublished, isPinned, publishedAt }) => ({
    id,
    title,
    tag,
    isPublished,
    isPinned,
    publishedAt,
  }));
  return { rows, search: query.search ?? "", tag: query.tag ?? "", searchedNewest: searchedNewest ?? null };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const page = await rowsOf(ctx.state.services.kv, params);
    const { rows } = page;
    const { t } = ctx.state;
    const named = (id: string | null) => rows.find((row) => row.id === id);
    const updated = named(params.get("updated"));
    const notice = updated
      ? t("admin.posts.saved", { title: updated.title })
      : params.get("deleted") === "1"
      ? t("admin.posts.deletedDone")
      : "";
    return ctx.render({ ...page, notice, error: "", doomed: named(params.get("delete")) });
  },

  async POST(req, ctx) {
    const { kv, files, log } = ctx.state.services;
    const { t } = ctx.state;
    // The search and tag the form was posted from (the page checks them when it is read again).
    const back = { search: ctx.url.searchParams.get("search"), tag: ctx.url.searchParams.get("tag") };
    const form = rowFormSchema.safeParse(
      await readFormFields(req, ["intent", "id", ...ROW_SWITCHES.fields]),
    );
    try {
      if (!form.success) throw new NotFoundError(REFUSALS.postNotFound);
      const { intent, id } = form.data;
      if (intent === "delete") {
        await deletePost(kv, {
          files,
          log,
          id,
          audit: adminAudit(ctx.state, { action: "post.delete", targetKind: "post" }),
        });
        return seeOther(listAddress("/admin/ungatekeep", back, { deleted: "1" }));
      }
      const { patch, summary } = changedSwitches(form.data, SWITCHES);
      if (Object.keys(patch).length === 0) return seeOther(listAddress("/admin/ungatekeep", back, { updated: id }));
      const audit = adminAuditOfChange(ctx.state, { action: "post.update", targetKind: "post", change: summary });
      await updatePost(kv, { files, log, id, patch, audit });
      return seeOther(listAddress("/admin/ungatekeep", back, { updated: id }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = form.success ? errorResponse(error).status : 400;
      return ctx.render({ ...await rowsOf(kv), notice: "", error: refusalText(t, error) }, { status });
    }
  },
});

export default define.page<Data>(function AdminPostsPage({ data, url }) {
  const t = useT();
  const saved = data.rows.find((row) => row.id === url.searchParams.get("saved"));
  const { doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.ungatekeep") })} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.ungatekeep")}</h1>
          <p class="mt-2 text-slate-700">{t("admin.ungatekeep.lead")}</p>
        </div>
        <a
          href="/admin/ungatekeep/new"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("admin.ungatekeep.newPost")}
        </a>
      </div>
      {saved && (
        <Notice kind="success">
          {t.rich("admin.ungatekeep.saved", {
            title: saved.title,
            link: (chunks) => <a href={`/ungatekeep/${saved.id}`} class="font-medium underline">{chunks}</a>,
          })}
        </Notice>
      )}
      {data.notice && <Notice kind="success" title={data.notice} />}
      {data.error && <Notice kind="error" title={t("admin.posts.rowFailed")}>{data.error}</Notice>}
      {doomed && (
        <DeleteConfirmation
          id="delete-post"
          title={t("admin.posts.deleteTitle")}
          text={t("admin.posts.deleteText", { title: doomed.title })}
          action={listAddress("/admin/ungatekeep", { search: data.search, tag: data.tag })}
          fields={{ intent: "delete", id: doomed.id }}
          cancelHref={listAddress("/admin/ungatekeep", { search: data.search, tag: data.tag })}
        />
      )}
      <UngatekeepPostsTable
        initial={data.rows}
        search={data.search}
        tag={data.tag}
        searchedNewest={data.searchedNewest}
        text={t.island(POSTS_TABLE_TEXT)}
      />
    </section>
  );
});
