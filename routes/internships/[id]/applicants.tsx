/**
 * `/internships/{id}/applicants`: the poster's list of an internship's applications (docs/decisions.md, Applications,
 * "The poster's list"), for its owner, the managers of its verified organization and admins (anyone else: 404). Status
 * tabs with counts, a search over the applicants, pages of 20, each application with its answers, its resume and a
 * folded plain form that moves it alone; one plain form (no JavaScript needed) moves the selected applications (at
 * most 100) with an optional message, as
 * `POST /api/internships/{id}/applications/bulk` does, and answers 303 back to the same tab with how many moved (refused,
 * the page again, scrolled to what was wrong: the list's notice, or the card's own form); a link
 * downloads the tab and search as a CSV file (`GET /api/internships/{id}/applications/export`). Its
 * owner made a user again (docs/decisions.md, Internships, "A poster made a user again"), following an earlier "new
 * applicants" notice, is sent to the listing on "My internships" (303), which says why its applicants are no longer
 * theirs, rather than to a bare 404. Leaving with applications ticked or a message typed and not sent asks first
 * (`data-keep-typed`; a form sent back with its message, `data-unsaved`; docs/decisions.md, Islands, "Leaving a typed
 * form").
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, TextAreaField, TextField } from "@/components/forms.tsx";
import { ApplicantCard } from "@/components/applications/ApplicantCard.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { CONTROL, PRIMARY_BUTTON } from "@/lib/browser/styles.ts";
import {
  APPLICATION_STATUSES,
  type ApplicationStatus,
  changeMany,
  DEFAULT_PAGE,
  MAX_BULK,
  MESSAGE_MAX,
  POSTER_STATUSES,
  type PosterApplication,
  posterApplications,
  posterListing,
  type PosterStatus,
  type StatusCounts,
  TIMEOUT_AFTER_DEADLINE_DAYS,
} from "@/lib/applications/applications.ts";
import { checkMovesAllowed, messageAsksToPay, movesRefusal, posterMovesFrom } from "@/lib/applications/policy.ts";
import { refusalText } from "@/lib/refusals.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import { canPost } from "@/lib/internships/policy.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { SignedInState } from "@/lib/platform/state.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Moves fall under the per-person limit `pipeline`. */
export const routeOptions: RouteOptions = { personLimit: "pipeline" };

/** What the move form held, and what was wrong with it. */
interface MoveForm {
  ids: string[];
  status: string;
  message: string;
  errors: Record<string, string>;
  /** The application whose card's own form it was (`one`, among `ids`), or null: the batch form. */
  one: string | null;
}

/** The batch form as nothing was sent with it. */
const EMPTY_FORM: MoveForm = { ids: [], status: "", message: "", errors: {}, one: null };

interface Data {
  internship: InternshipView;
  applications: PosterApplication[];
  counts: StatusCounts;
  total: number;
  status: ApplicationStatus | undefined;
  search: string;
  offset: number;
  /** How many the last move moved (from `?moved=`), or null. */
  moved: number | null;
  /**
   * Why the viewer (not an admin) moves none of the listing's applications nor reads their resumes (an admin rejected
   * it, or it was deleted: `movesRefusal`), or null.
   */
  stopped: string | null;
  form: MoveForm;
}

const FORM_ID = "move-form";

/** The tab, search and page of the URL (unknown values fall back to the defaults). */
function viewOf(url: URL) {
  const raw = url.searchParams.get("status") ?? "";
  const status = (APPLICATION_STATUSES as readonly string[]).includes(raw) ? raw as ApplicationStatus : undefined;
  const search = (url.searchParams.get("search") ?? "").slice(0, 200);
  const offset = Math.max(0, Math.min(Number(url.searchParams.get("offset")) || 0, 1_000_000));
  const moved = url.searchParams.get("moved");
  return { status, search, offset, moved: moved !== null && /^\d+$/.test(moved) ? Number(moved) : null };
}

/** `path` with `params` as its query (empty ones left out). */
function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "" && value !== 0) query.set(key, String(value));
  }
  const text = query.toString();
  return `${path}${text ? `?${text}` : ""}`;
}

/** The list's path with `params` (empty ones left out). */
function pathOf(id: string, params: Record<string, string | number | undefined>): string {
  return withQuery(`/internships/${id}/applicants`, params);
}

async function pageData(state: SignedInState, id: string, url: URL, form?: MoveForm): Promise<Data> {
  const { kv } = state.services;
  const { view: internship, record } = await posterListing(kv, id, state.user);
  const { status, search, offset, moved } = viewOf(url);
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const page = await posterApplications(kv, {
    internshipId: id,
    actor: state.user,
    query: { status, search: words, limit: DEFAULT_PAGE, offset },
  });
  return {
    internship,
    applications: page.applications,
    counts: page.counts,
    total: page.pagination.total,
    status,
    search,
    offset,
    moved,
    stopped: movesRefusal(state.user, record),
    form: form ?? EMPTY_FORM,
  };
}

/** The problems of a posted move, by field. */
function problemsOf(t: Translate, form: MoveForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.ids.length === 0) errors.ids = t("applications.pipeline.noneSelected");
  if (form.ids.length > MAX_BULK) errors.ids = t("applications.pipeline.tooMany", { max: MAX_BULK });
  if (!(POSTER_STATUSES as readonly string[]).includes(form.status)) {
    errors.status = t("applications.pipeline.badStatus");
  }
  if (form.message.length > MESSAGE_MAX) {
    errors.message = t("applications.pipeline.tooLong", { max: t.number(MESSAGE_MAX) });
  } else if (messageAsksToPay(form.message)) errors.message = t("fields.messageAsksToPay");
  return errors;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    try {
      return ctx.render(await pageData(ctx.state, ctx.params.id, ctx.url));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const listing = await internshipRecord(ctx.state.services.kv, ctx.params.id);
      const formerPoster = listing !== null && !listing.record.deletedAt &&
        listing.record.userId === ctx.state.user.id && !canPost(ctx.state.user);
      if (!formerPoster) throw error;
      return seeOther(`/internships/mine#internship-${listing.record.id}`);
    }
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services } = ctx.state;
    const { record } = await posterListing(services.kv, ctx.params.id, ctx.state.user);
    checkMovesAllowed(ctx.state.user, record);
    const posted = await readForm(req);
    const text = (name: string) => {
      const value = posted.get(name);
      return typeof value === "string" ? value.replaceAll("\r\n", "\n").trim() : "";
    };
    const ids = [
      ...new Set(posted.getAll("ids").filter((id): id is string => typeof id === "string" && id.length <= 100)),
    ];
    const one = text("one");
    const form: MoveForm = {
      ids,
      status: text("status"),
      message: text("message"),
      errors: {},
      one: ids.length === 1 && ids[0] === one ? one : null,
    };
    form.errors = problemsOf(ctx.state.t, form);
    if (Object.keys(form.errors).length > 0) {
      return ctx.render(await pageData(ctx.state, ctx.params.id, ctx.url, form), { status: 400 });
    }
    const { updated, mailIds } = await changeMany(services.kv, {
      internshipId: ctx.params.id,
      actor: ctx.state.user,
      change: { ids: form.ids, status: form.status as PosterStatus, message: form.message || null },
      appUrl: services.config.appUrl,
    });
    for (const id of mailIds) deliverSoon(services, id);
    const { status, search, offset } = viewOf(ctx.url);
    return seeOther(`${pathOf(ctx.params.id, { status, search, offset, moved: updated })}#results`);
  },
});

function Tabs({ data }: { data: Data }) {
  const t = useT();
  const all = Object.values(data.counts).reduce((sum, count) => sum + count, 0);
  const tabs: { status: ApplicationStatus | undefined; label: string }[] = [
    { status: undefined, label: t("applications.pipeline.all", { count: t.number(all) }) },
    ...APPLICATION_STATUSES.map((status) => ({
      status,
      label: t("applications.pipeline.tab", {
        status: t.dynamic(`applications.status.${status}`),
        count: t.number(data.counts[status]),
      }),
    })),
  ];
  return (
    <nav aria-label={t("applications.pipeline.tabs")} class="mt-6">
      <ul class="flex flex-wrap gap-2">
        {tabs.map((tab) => {
          const current = tab.status === data.status;
          return (
            <li key={tab.status ?? "all"}>
              <a
                href={pathOf(data.internship.id, { status: tab.status, search: data.search })}
                aria-current={current ? "page" : undefined}
                class={`inline-block rounded-full border px-3 py-1.5 text-sm font-medium ${
                  current
                    ? "border-indigo-700 bg-indigo-700 text-white"
                    : "border-slate-300 bg-white text-slate-800 hover:border-indigo-700"
                }`}
              >
                {tab.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The link to the CSV of this tab and search (`GET /api/internships/{id}/applications/export`), with what it holds. */
function ExportLink({ data }: { data: Data }) {
  const t = useT();
  const href = withQuery(`/api/internships/${data.internship.id}/applications/export`, {
    status: data.status,
    search: data.search,
  });
  return (
    <p class="mt-3 text-sm text-slate-700">
      <a
        href={href}
        download
        aria-describedby="export-hint"
        class="font-medium text-indigo-700 underline hover:text-indigo-900"
      >
        {t("applications.export.link")}
      </a>{" "}
      <span id="export-hint">{t("applications.export.hint")}</span>
    </p>
  );
}

function MoveFields({ data }: { data: Data }) {
  const t = useT();
  const form = data.form.one ? EMPTY_FORM : data.form;
  const here = pathOf(data.internship.id, { status: data.status, search: data.search, offset: data.offset });
  return (
    <form
      id={FORM_ID}
      method="post"
      data-keep-typed
      data-unsaved={(Object.keys(form.errors).length > 0 && form.message.trim() !== "") || undefined}
      action={`${here}#results`}
      class="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <fieldset class="space-y-4">
        <legend class="text-lg font-semibold text-slate-900">{t("applications.pipeline.moveLegend")}</legend>
        <p id="move-hint" class="text-sm text-slate-700">
          {t("applications.pipeline.moveHint", { max: MAX_BULK })}
        </p>
        {form.errors.ids && <p id="ids-error" class="text-sm font-medium text-red-800">{form.errors.ids}</p>}
        <div>
          <label for="move-status" class="block text-sm font-medium text-slate-800">
            {t("applications.pipeline.status")}
          </label>
          <select
            id="move-status"
            name="status"
            aria-invalid={form.errors.status ? "true" : undefined}
            aria-describedby={form.errors.status ? "move-status-error" : undefined}
            class={`${CONTROL} ${form.errors.status ? "border-red-700" : "border-slate-400"}`}
          >
            <option value="">{t("common.choose")}</option>
            {POSTER_STATUSES.map((status) => (
              <option key={status} value={status} selected={form.status === status}>
                {t.dynamic(`applications.status.${status}`)}
              </option>
            ))}
          </select>
          {form.errors.status && (
            <p id="move-status-error" class="mt-1 text-sm font-medium text-red-800">{form.errors.status}</p>
          )}
        </div>
        <TextAreaField
          id="move-message"
          name="message"
          label={t("applications.pipeline.message")}
          hint={t("applications.pipeline.messageHint", { max: t.number(MESSAGE_MAX) })}
          rows={4}
          value={form.message}
          error={form.errors.message}
        />
        <button type="submit" class={PRIMARY_BUTTON}>{t("applications.pipeline.move")}</button>
      </fieldset>
    </form>
  );
}

export default define.page<Data>(function ApplicantsPage({ data }) {
  const t = useT();
  const { internship, applications, total, offset } = data;
  // A card's own form says what was wrong in that card.
  const errors = data.form.one ? [] : Object.values(data.form.errors);
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-4xl [overflow-wrap:anywhere]">
      <PageHead title={t("applications.pipeline.pageTitle", { title: internship.title })} />
      <a href={`/internships/${internship.id}`} class="text-sm text-indigo-700 underline hover:text-indigo-900">
        ← {internship.title}
      </a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">
        {t("applications.pipeline.heading")}
      </h1>
      <p class="mt-2 text-slate-700">
        {t("applications.pipeline.lead", { days: TIMEOUT_AFTER_DEADLINE_DAYS })}
      </p>
      <Tabs data={data} />
      <form
        method="get"
        action={`/internships/${internship.id}/applicants`}
        class="mt-4 flex flex-wrap items-end gap-2"
      >
        {data.status && <input type="hidden" name="status" value={data.status} />}
        <div class="min-w-0 flex-1">
          <TextField
            id="search"
            name="search"
            type="search"
            label={t("applications.pipeline.search")}
            hint={t("applications.pipeline.searchHint")}
            value={data.search}
          />
        </div>
        <button type="submit" class={PRIMARY_BUTTON}>{t("applications.pipeline.searchButton")}</button>
      </form>
      {total > 0 && !data.stopped && <ExportLink data={data} />}
      <div id="results" class="mt-6 space-y-3">
        {data.stopped && <Notice kind="error">{refusalText(t, data.stopped)}</Notice>}
        {data.moved !== null && (
          <Notice kind={data.moved > 0 ? "success" : "info"}>
            {t("applications.pipeline.moved", { count: data.moved })}
          </Notice>
        )}
        {errors.length > 0 && (
          <Notice kind="error">
            <ul class="list-disc pl-5">{errors.map((error) => <li key={error}>{error}</li>)}</ul>
          </Notice>
        )}
        {applications.length === 0
          ? (
            <p class="text-slate-700">
              {data.search ? t("applications.pipeline.emptySearch") : t("applications.pipeline.empty")}
            </p>
          )
          : (
            <>
              <p class="text-sm text-slate-700">
                {t("applications.pipeline.page", {
                  from: t.number(offset + 1),
                  to: t.number(offset + applications.length),
                  total: t.number(total),
                })}
              </p>
              <ul class="space-y-3">
                {applications.map((application) => (
                  <ApplicantCard
                    key={application.id}
                    application={application}
                    form={data.stopped ? undefined : FORM_ID}
                    selected={!data.form.one && data.form.ids.includes(application.id)}
                    resumeWithheld={data.stopped !== null}
                    move={data.stopped ? undefined : {
                      action: pathOf(internship.id, { status: data.status, search: data.search, offset }),
                      statuses: posterMovesFrom(application.status),
                      sent: data.form.one === application.id ? data.form : undefined,
                    }}
                  />
                ))}
              </ul>
            </>
          )}
        {(offset > 0 || offset + applications.length < total) && (
          <nav class="flex justify-between gap-3" aria-label={t("applications.pipeline.pages")}>
            {offset > 0
              ? (
                <a
                  href={pathOf(internship.id, {
                    status: data.status,
                    search: data.search,
                    offset: Math.max(0, offset - DEFAULT_PAGE),
                  })}
                  class="font-medium text-indigo-700 underline"
                >
                  {t("applications.pipeline.previous")}
                </a>
              )
              : <span />}
            {offset + applications.length < total && (
              <a
                href={pathOf(internship.id, {
                  status: data.status,
                  search: data.search,
                  offset: offset + DEFAULT_PAGE,
                })}
                class="font-medium text-indigo-700 underline"
              >
                {t("applications.pipeline.next")}
              </a>
            )}
          </nav>
        )}
      </div>
      {applications.length > 0 && !data.stopped && <MoveFields data={data} />}
    </section>
  );
});
