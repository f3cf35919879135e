/**
 * `/admin/users`: the user table with search, role and suspension filters, pages, role changes and suspensions (admins
 * only, by `_middleware.ts`; docs/decisions.md, Admin, "Suspension"). The server renders the page the query asks for
 * (`search`, `role`, `offset`; `suspended=1`: the suspended accounts; a value the list refuses is dropped), so the
 * search form (a `GET` form), "Previous" and "Next" (links) work without JavaScript, and each row's role (its select
 * and "Change role"), "Suspend" (with its reason, "Also hide their open listings" and "Also remove their comments") and
 * "Lift suspension" are plain forms (docs/decisions.md, Islands, "Forms work without JavaScript"): `POST` (fields
 * `userId`, `action` `role`, `suspend` or `lift`, `role`, `reason`, `hideListings` and `removeComments` `1` when
 * ticked) to the page's own address (its `suspended`, `search`, `role` and `offset`) answers 303 back to that page with
 * `done` (`role` with `user`, the changed account's id, `closed` how many of their listings closed, `later=1` when that
 * close was kept busy; `hidden`, how many listings were hidden, when asked; `comments=1` when their comments are being
 * removed: the row shows how far; `later=1` when hiding or closing their listings or removing their comments was kept
 * busy: suspended all the same, jobs finish it), or renders that page again under a notice of what was not done with
 * the refusal's sentence, which also shows at the row's role control or its suspension form (a refused suspension's
 * kept as it was sent; after a refused lift, as the form starts) (400, 403, 404, 409). The island enhances the rest.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import AdminUsersTable, { ADMIN_USERS_TEXT, type SuspensionRefusal } from "@/islands/AdminUsersTable.tsx";
import {
  type AdminUserListQuery,
  adminUserListQuerySchema,
  type AdminUserPage,
  listUsersForAdmin,
} from "@/lib/users/admin.ts";
import type { Role } from "@/lib/users/roles.ts";
import { changeUserRole, parseRoleChange } from "@/lib/users/admin.ts";
import { getUser } from "@/lib/users/users.ts";
import { liftSuspension, runSuspension, suspendUser, suspensionSchema } from "@/lib/users/suspension.ts";
import { runDemotionClose } from "@/lib/internships/demotion_closes.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { DomainError, InvalidInputError } from "@/lib/errors.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** Rows per page (the island's too). */
export const USERS_PAGE_SIZE = 20;

interface Data {
  page: AdminUserPage;
  /** The search and role filter the page answers (none: ""). */
  search: string;
  role: Role | "";
  suspended: boolean;
  done: "suspended" | "lifted" | null;
  /**
   * The account whose role the last plain form changed (`done=role`), its name and new role, how many of its open
   * listings closed with it (its `closed` parameter), and whether that close was kept busy and its job finishes it (its
   * `later` parameter); or null.
   */
  changed: { name: string; role: Role; closed: number; finishing: boolean } | null;
  /** How many listings the suspension hid (its `hidden` parameter), or null. */
  hidden: number | null;
  /** Whether the suspension removes their comments (its `comments` parameter). */
  comments: boolean;
  /** Whether what the suspension runs was kept busy and its jobs finish it (its `later` parameter). */
  finishing: boolean;
  /** A refused form's sentence, in the reader's language, under the title of what it did not do. */
  problem: { title: MessageKey; text: string } | null;
  /** A refused role change: the row's user id and the sentence shown at its role control. */
  refusedRole?: { userId: string; message: string };
  /** A refused suspension or lift: shown at its row's form, its boxes as they were sent. */
  refusedSuspension?: SuspensionRefusal;
}

/**
 * The page a row's form was sent from, which its form posts to (`params`, the query of the post): its view
 * (`suspended`), search, role filter and offset (none for the first page), to render again when refused and to go
 * back to when done.
 */
function placeOf(params: URLSearchParams): URLSearchParams {
  const place = new URLSearchParams();
  for (const name of ["suspended", "search", "role", "offset"]) {
    const value = params.get(name);
    if (value && !(name === "offset" && value === "0")) place.set(name, value);
  }
  return place;
}

/** The list's query of a page's URL parameters; with a value the list refuses, its first page (of `suspended`). */
function pageQuery(params: URLSearchParams, suspended: boolean): AdminUserListQuery {
  const given = (name: string) => params.get(name) || undefined;
  const fixed = { limit: String(USERS_PAGE_SIZE), suspended: String(suspended) };
  const parsed = adminUserListQuerySchema.safeParse({
    ...fixed,
    search: given("search"),
    role: given("role"),
    offset: given("offset"),
  });
  return parsed.success ? parsed.data : adminUserListQuerySchema.parse(fixed);
}

const DONE = new Set(["suspended", "lifted"]);

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const suspended = params.get("suspended") === "1";
    const done = params.get("done");
    const query = pageQuery(params, suspended);
    const count = (name: string) => /^\d{1,6}$/.test(params.get(name) ?? "") ? Number(params.get(name)) : null;
    const hidden = count("hidden");
    const changedId = done === "role" ? params.get("user") ?? "" : "";
    const changed = changedId.length > 0 && changedId.length <= 100
      ? await getUser(ctx.state.services.kv, changedId)
      : null;
    return ctx.render({
      page: await listUsersForAdmin(ctx.state.services.kv, query),
      search: query.search ?? "",
      role: query.role ?? "",
      suspended,
      done: done && DONE.has(done) ? done as Data["done"] : null,
      hidden: done === "suspended" ? hidden : null,
      comments: done === "suspended" && params.get("comments") === "1",
      finishing: done === "suspended" && params.get("later") === "1",
      changed: changed && {
        name: changed.name,
        role: changed.role,
        closed: count("closed") ?? 0,
        finishing: params.get("later") === "1",
      },
      problem: null,
    });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services, t } = ctx.state;
    const form = await readFormFields(req, [
      "userId",
      "action",
      "role",
      "reason",
      "hideListings",
      "removeComments",
    ]);
    const parties = { actorId: ctx.state.user.id, targetId: form.userId, appUrl: services.config.appUrl };
    const place = placeOf(ctx.url.searchParams);
    const suspended = place.get("suspended") === "1";
    const again = async (
      status: number,
      problem: Data["problem"],
      refused: Pick<Data, "refusedRole" | "refusedSuspension"> = {},
    ) => {
      const query = pageQuery(place, suspended);
      const data: Omit<Data, "problem"> = {
        page: await listUsersForAdmin(services.kv, query),
        search: query.search ?? "",
        role: query.role ?? "",
        suspended,
        done: null,
        changed: null,
        hidden: null,
        comments: false,
        finishing: false,
      };
      return ctx.render({ ...data, problem, ...refused }, { status });
    };
    const back = place.size > 0 ? `&${place}` : "";
    if (form.action === "role") {
      try {
        const role = parseRoleChange({ role: form.role });
        const user = await changeUserRole(services.kv, { actorId: ctx.state.user.id, targetId: form.userId, role });
        // Changed from here on: a close kept busy is left to its job, and the page says so.
        const { closed, finishing } = await runDemotionClose(services.kv, user.id);
        const listings = `${closed > 0 ? `&closed=${closed}` : ""}${finishing ? "&later=1" : ""}`;
        return seeOther(`/admin/users?done=role&user=${encodeURIComponent(user.id)}${listings}${back}`);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const field = error instanceof InvalidInputError ? error.fields.find((f) => f.field === "role") : undefined;
        const message = field ? fieldText(t, field) : refusalText(t, error);
        const problem = { title: "admin.users.notChanged", text: message } as const;
        return await again(errorResponse(error).status, problem, { refusedRole: { userId: form.userId, message } });
      }
    }
    let done = "lifted";
    const ticks = { hideListings: form.hideListings === "1", removeComments: form.removeComments === "1" };
    /**
     * The page again, saying the suspension or lift was not done, with `text` at its row: a refused suspension's form
     * with its boxes as sent; after a refused lift (the person no longer suspended) the row's suspension form starts as
     * it always does, its listings' box ticked, since a lift sends no boxes.
     */
    const refused = (status: number, text: string) =>
      again(status, { title: form.action === "lift" ? "admin.users.notLifted" : "admin.users.notSuspended", text }, {
        refusedSuspension: { userId: form.userId, message: text, ...form.action === "suspend" ? ticks : {} },
      });
    try {
      if (form.action === "suspend") {
        const body = suspensionSchema.safeParse({ reason: form.reason, ...ticks });
        if (!body.success) return await refused(400, t("admin.users.reasonProblem"));
        const { user, mailId } = await suspendUser(services.kv, { ...parties, ...body.data });
        deliverSoon(services, mailId);
        // Suspended from here on: a step kept busy is left to its job, and the page says so.
        const { hiddenListings, finishing } = await runSuspension(services.kv, { userId: user.id, ...body.data });
        const hidden = hiddenListings === null || finishing ? "" : `&hidden=${hiddenListings}`;
        done = `suspended${hidden}${body.data.removeComments ? "&comments=1" : ""}${finishing ? "&later=1" : ""}`;
      } else if (form.action === "lift") {
        deliverSoon(services, (await liftSuspension(services.kv, parties)).mailId);
      } else return await refused(400, t("admin.users.reasonProblem"));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return await refused(errorResponse(error).status, refusalText(t, error));
    }
    return seeOther(`/admin/users?done=${done}${back}`);
  },
});

export default define.page<Data>(function AdminUsersPage({ data, state }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.users.pageTitle") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.users")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.users.lead")}</p>
        <p class="mt-2 text-sm text-slate-700">{t("admin.users.suspensionHelp")}</p>
      </div>
      {data.done && (
        <Notice
          kind="success"
          title={t(data.done === "suspended" ? "admin.users.suspendedDone" : "admin.users.liftedDone")}
        >
          {data.hidden !== null && `${t("admin.users.listingsHidden", { count: data.hidden })} `}
          {data.comments && `${t("admin.users.commentsNotice")} `}
          {data.finishing && `${t("admin.users.finishing")} `}
          {t("admin.users.toldByMail")}
        </Notice>
      )}
      {data.changed && (
        <Notice kind="success" title={t("admin.users.changed", { name: data.changed.name, role: data.changed.role })}>
          {data.changed.closed > 0 && `${t("admin.users.listingsClosed", { count: data.changed.closed })} `}
          {data.changed.finishing && t("admin.users.closingLater")}
        </Notice>
      )}
      {data.problem && <Notice kind="error" title={t(data.problem.title)}>{data.problem.text}</Notice>}
      <AdminUsersTable
        currentUserId={state.user!.id}
        initial={data.page}
        search={data.search}
        role={data.role}
        suspended={data.suspended}
        refusedRole={data.refusedRole}
        refusedSuspension={data.refusedSuspension}
        text={t.island(ADMIN_USERS_TEXT)}
      />
    </section>
  );
});
