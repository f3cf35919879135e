/**
 * `/admin/internships`: every internship for moderation (admins only, by `/admin`'s
 * middleware and layout), with search, a choice of which states to show (public only, with
 * inactive, with deleted as well: the list's admin flags of docs/decisions.md, Internships; closed ones in each), pages,
 * and the verified/active switches on each live listing. Since every choice counts closed
 * listings (and inactive or deleted ones) that the public list leaves out, the count says how
 * many of them are open on the public list.
 *
 * The switches are plain forms until their island hydrates (docs/decisions.md, Islands, "Forms work without
 * JavaScript"), here and on a listing's page: `POST` (`intent` `moderate`, `id`, `isVerified` and `isActive` `true` when
 * ticked, each with its drawn value as `was_isVerified`, `was_isActive`; `back`: this list's address or the listing's
 * page) saves the switches its admin changed (`changedSwitches`) as `PUT /api/internships/{id}` does and answers 303 to `back` with `moderated={id}` (another `back` is this list), or renders this list with the refusal (400, 404).
 */
import { define } from "@/lib/platform/define.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { ignoredNote, parseListQuery } from "@/lib/internships/parse_query.ts";
import { DEFAULT_LIMIT, NO_FILTERS, readListParams } from "@/lib/browser/internship_query.ts";
import { Notice } from "@/components/forms.tsx";
import { INPUT } from "@/lib/browser/styles.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipAdminControls, { INTERNSHIP_ADMIN_TEXT } from "@/islands/InternshipAdminControls.tsx";
import { type InternshipPage, listInternships } from "@/lib/internships/internships.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { z } from "zod";
import { updateInternship } from "@/lib/internships/writes.ts";
import { auditIfAdmin } from "@/lib/http/admin_audit.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { changedSwitches, readFormFields, seeOther, switchFields } from "@/lib/http/form_posts.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import type { RouteContext } from "@/lib/platform/define.ts";

/** Which states the list shows; `live` (active and inactive, not deleted) is the default. */
const SHOW = {
  public: { label: "admin.internships.showPublic", flags: { includeClosed: "true" } },
  live: { label: "admin.internships.showLive", flags: { includeClosed: "true", includeInactive: "true" } },
  all: {
    label: "admin.internships.showAll",
    flags: { includeClosed: "true", includeInactive: "true", includeDeleted: "true" },
  },
} as const satisfies Record<string, { label: MessageKey; flags: Record<string, string> }>;
type Show = keyof typeof SHOW;

interface Data {
  search: string;
  show: Show;
  page: InternshipPage;
  /** How many of the matching listings the public list shows (active, not deleted, open). */
  open: number;
  notice?: string;
  /** A refused moderation form's sentence. */
  error?: string;
}

/** The moderation switches, each posted with the value its page was drawn with (`was_{name}`). */
const SWITCHES = ["isVerified", "isActive"] as const;
const ROW_SWITCHES = switchFields(SWITCHES);

/** The moderation form's fields; `back` is a path of this list or the listing's page, checked by `backTo`. */
const moderateFormSchema = z.object({
  intent: z.literal("moderate"),
  id: z.string().min(1).max(100),
  ...ROW_SWITCHES.shape,
  back: z.string().max(2000),
});

/** Where a saved moderation form returns: `back` when it is this list or listing `id`'s page, with `moderated={id}`. */
function backTo(back: string, id: string): string {
  const url = new URL(back, "http://local");
  const known = url.pathname === "/admin/internships" || url.pathname === `/internships/${id}`;
  const target = known && back.startsWith("/") && !back.startsWith("//") ? url : new URL("/admin/internships", url);
  target.searchParams.set("moderated", id);
  return `${target.pathname}${target.search}`;
}

export const handler = define.handlers<Data | null>({
  GET: (_req, ctx) => render(ctx),

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { t } = ctx.state;
    const form = moderateFormSchema.safeParse(
      await readFormFields(req, ["intent", "id", ...ROW_SWITCHES.fields, "back"]),
    );
    try {
      if (!form.success) throw new NotFoundError(REFUSALS.internshipNotFound);
      const { id, back } = form.data;
      const { patch, summary } = changedSwitches(form.data, SWITCHES);
      if (Object.keys(patch).length === 0) return seeOther(backTo(back, id));
      const audit = auditIfAdmin(ctx.state, { action: "internship.update", targetKind: "internship", summary });
      await updateInternship(ctx.state.services.kv, {
        id,
        actor: ctx.state.user,
        patch,
        audit,
      });
      return seeOther(backTo(back, id));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = form.success ? errorResponse(error).status : 400;
      return await render(ctx, { error: refusalText(t, error), status });
    }
  },
});

/** The list the page's query asks for, with a refused form's sentence and status. */
async function render(ctx: RouteContext<Data | null>, refused?: { error: string; status: number }) {
  const viewer = ctx.state.user;
  if (!viewer || !isAdmin(viewer)) return ctx.render(null);
  const requested = ctx.url.searchParams.get("show") ?? "";
  const show: Show = Object.hasOwn(SHOW, requested) ? requested as Show : "live";
  const { filters: { search }, offset } = readListParams(ctx.url.searchParams);
  const { query, ignored } = parseListQuery(
    { filters: { ...NO_FILTERS, search }, sort: "", offset, limit: "" },
    SHOW[show].flags,
  );
  const { kv } = ctx.state.services;
  const page = await listInternships(kv, { query, viewer });
  const publicList = await listInternships(kv, {
    query: { ...query, includeClosed: false, offset: 0, limit: 1 },
    viewer: null,
  });
  return ctx.render({
    search,
    show,
    page,
    open: publicList.pagination.total,
    notice: ignoredNote(ctx.state.t, ignored),
    error: refused?.error,
  }, { status: refused?.status ?? 200 });
}

function href(search: string, show: Show, offset: number): string {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (show !== "live") params.set("show", show);
  if (offset > 0) params.set("offset", String(offset));
  const query = params.toString();
  return query ? `/admin/internships?${query}` : "/admin/internships";
}

export default define.page<Data | null>(function AdminInternshipsPage({ data, url }) {
  if (!data) return null;
  const { search, show, page: { internships, pagination }, open, notice, error } = data;
  const limit = pagination.limit || DEFAULT_LIMIT;
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead
        title={t("admin.pageTitle", {
          page: search ? t("admin.internships.pageTitleSearch", { search }) : t("admin.internships.pageTitle"),
        })}
      />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.internships")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.internships.lead")}</p>
      </div>
      <form
        method="get"
        action="/admin/internships"
        role="search"
        aria-label={t("admin.internships.find")}
        class="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div class="min-w-56 flex-1">
          <label for="admin-search" class="block text-sm font-medium text-slate-800">
            {t("admin.internships.search")}
          </label>
          <input
            id="admin-search"
            type="search"
            name="search"
            value={search}
            class={INPUT}
          />
        </div>
        <div>
          <label for="admin-show" class="block text-sm font-medium text-slate-800">{t("admin.internships.show")}</label>
          <select
            id="admin-show"
            name="show"
            class={INPUT}
          >
            {(Object.keys(SHOW) as Show[]).map((key) => (
              <option key={key} value={key} selected={key === show}>{t(SHOW[key].label)}</option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
        >
          {t("admin.internships.findButton")}
        </button>
      </form>
      {notice && <Notice kind="error">{notice}</Notice>}
      {error && <Notice kind="error" title={t("admin.internshipControls.notSavedTitle")}>{error}</Notice>}
      <p role="status" class="text-slate-700">
        {internships.length > 0
          ? t("admin.internships.status", {
            from: pagination.offset + 1,
            to: pagination.offset + internships.length,
            total: pagination.total,
            open,
          })
          : t("admin.internships.none")}
      </p>
      {internships.length > 0 && (
        <ul class="space-y-4">
          {internships.map((internship) => (
            <li key={internship.id} class="space-y-2">
              <InternshipCard internship={internship} showState headingLevel={2} linked={!internship.deletedAt} />
              <p class="text-sm text-slate-700">
                {internship.user
                  ? t("admin.postedBy", {
                    name: internship.user.name,
                    role: t.dynamic(`admin.roles.${internship.user.role}`),
                  })
                  : t("admin.postedByFormer", { name: t("common.formerMember") })}
              </p>
              {!internship.deletedAt && (
                <InternshipAdminControls
                  text={t.island(INTERNSHIP_ADMIN_TEXT)}
                  id={internship.id}
                  title={internship.title}
                  isVerified={internship.isVerified}
                  isActive={internship.isActive}
                  back={href(search, show, pagination.offset)}
                  saved={url.searchParams.get("moderated") === internship.id}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination
        prev={pagination.offset > 0 ? { href: href(search, show, Math.max(0, pagination.offset - limit)) } : null}
        next={pagination.hasMore ? { href: href(search, show, pagination.offset + limit) } : null}
      />
    </section>
  );
});
