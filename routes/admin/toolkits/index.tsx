/**
 * `/admin/toolkits`: the toolkits table with search, active and Sale-badge switches and delete (admins only, by
 * `_middleware.ts`). The page renders the rows; without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript") a row's switches and its Save button are a plain form and its Delete a link to `?delete={id}`, this
 * page with a confirmation naming that toolkit; `POST` takes them by `intent`: `update` (`id`, `isActive` and
 * `showSaleBadge` `true` when ticked, each with its drawn value as `was_isActive`, `was_showSaleBadge`) saves the
 * switches its admin changed (`changedSwitches`) as `PUT /api/admin/toolkits/{id}` does, 303 to `?saved={id}`;
 * `delete` (`id`) deletes the toolkit as `DELETE` does, 303 to `?deleted=1`. A refused one renders the page again
 * with its sentence (400, 404). `?search=` (the search's `GET` form without JavaScript) renders the toolkits whose
 * title holds its every word; the row forms, the Delete link, its confirmation and Cancel keep it, and so do the 303s
 * (docs/decisions.md, Islands, "A row's way back keeps the list").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import AdminToolkitsTable, { ADMIN_TOOLKITS_TEXT } from "@/islands/AdminToolkitsTable.tsx";
import { deleteToolkit, listToolkitsForAdmin, updateToolkit } from "@/lib/toolkits/catalog.ts";
import { type Toolkit, ToolkitSearchSchema } from "@/lib/toolkits/schema.ts";
import { adminAudit, adminAuditOfChange } from "@/lib/http/admin_audit.ts";
import { changedSwitches, readFormFields, seeOther, switchFields } from "@/lib/http/form_posts.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  toolkits: Toolkit[];
  /** The search the rows answer ("": none). */
  search: string;
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused form's sentence; "" for none. */
  error: string;
  /** The toolkit whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: Toolkit;
}

/** A row's switches, each posted with the value its page was drawn with (`was_{name}`). */
const SWITCHES = ["isActive", "showSaleBadge"] as const;
const ROW_SWITCHES = switchFields(SWITCHES);

/** A row's form: its intent and toolkit id (ids are UUIDs; a longer one names no toolkit), and the two switches. */
const rowFormSchema = z.object({
  intent: z.enum(["update", "delete"]),
  id: z.string().min(1).max(100),
  ...ROW_SWITCHES.shape,
});

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const asked = ToolkitSearchSchema.safeParse({ search: params.get("search") || undefined });
    const search = asked.success ? asked.data.search ?? "" : "";
    const toolkits = await listToolkitsForAdmin(ctx.state.services.kv, search);
    const { t } = ctx.state;
    const named = (id: string | null) => toolkits.find((toolkit) => toolkit.id === id);
    const saved = named(params.get("saved"));
    const notice = saved
      ? t("admin.toolkits.saved", { title: saved.title })
      : params.get("deleted") === "1"
      ? t("admin.toolkits.deletedDone")
      : "";
    return ctx.render({ toolkits, search, notice, error: "", doomed: named(params.get("delete")) });
  },

  async POST(req, ctx) {
    const { kv, files, log } = ctx.state.services;
    // The search the form was posted from (the page checks it when it is read again).
    const back = ctx.url.searchParams.get("search");
    const form = rowFormSchema.safeParse(
      await readFormFields(req, ["intent", "id", ...ROW_SWITCHES.fields]),
    );
    try {
      if (!form.success) throw new NotFoundError(REFUSALS.toolkitNotFound);
      const { intent, id } = form.data;
      if (intent === "delete") {
        const audit = adminAudit(ctx.state, { action: "toolkit.delete", targetKind: "toolkit" });
        await deleteToolkit(kv, { id, audit, images: { files, log } });
        return seeOther(listAddress("/admin/toolkits", { search: back }, { deleted: "1" }));
      }
      const { patch, summary } = changedSwitches(form.data, SWITCHES);
      if (Object.keys(patch).length === 0) {
        return seeOther(listAddress("/admin/toolkits", { search: back }, { saved: id }));
      }
      const audit = adminAuditOfChange(ctx.state, { action: "toolkit.update", targetKind: "toolkit", change: summary });
      await updateToolkit(kv, { id, patch, audit, images: { files, log } });
      return seeOther(listAddress("/admin/toolkits", { search: back }, { saved: id }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = form.success ? errorResponse(error).status : 400;
      const toolkits = await listToolkitsForAdmin(kv);
      return ctx.render({ toolkits, search: "", notice: "", error: refusalText(ctx.state.t, error) }, { status });
    }
  },
});

export default define.page<Data>(function AdminToolkitsPage({ data }) {
  const t = useT();
  const { doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.toolkits") })} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.toolkits")}</h1>
          <p class="mt-2 text-slate-700">{t("admin.toolkits.lead")}</p>
        </div>
        <a
          href="/admin/toolkits/new"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("admin.toolkits.new")}
        </a>
      </div>
      {data.notice && <Notice kind="success" title={data.notice} />}
      {data.error && <Notice kind="error" title={t("admin.list.changeNotSaved")}>{data.error}</Notice>}
      {doomed && (
        <DeleteConfirmation
          id="delete-toolkit"
          title={t("admin.toolkits.deleteTitle")}
          text={t("admin.toolkits.deleteText", { title: doomed.title })}
          action={listAddress("/admin/toolkits", { search: data.search })}
          fields={{ intent: "delete", id: doomed.id }}
          cancelHref={listAddress("/admin/toolkits", { search: data.search })}
        />
      )}
      <AdminToolkitsTable initial={data.toolkits} search={data.search} text={t.island(ADMIN_TOOLKITS_TEXT)} />
    </section>
  );
});
