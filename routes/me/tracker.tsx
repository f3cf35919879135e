/**
 * `/me/tracker`: the signed-in person's application tracker: the applications they sent here, with every change and
 * the organization's messages (withdraw and stipend report as plain forms; docs/decisions.md, Applications, "The
 * tracker follows"), then their other saved internships and opportunities by status, changeable in place
 * (docs/decisions.md, Student space): an internship applied to here shows only among the applications, with the
 * organization's word for its status. Guests are sent to sign in and back.
 *
 * `POST /me/tracker` is the tracker and every "Save" button without JavaScript (docs/decisions.md, Islands, "Forms
 * work without JavaScript"): `intent=save` with `kind`, `id` and `save` (`1` saves, `0` removes) as
 * `PUT`/`DELETE /api/me/saved/{kind}/{id}`; `intent=update` with `status` and `note`; `intent=remove`. Each answers
 * 303 to the tracker, which says what was done (`?done=saved|removed|updated`, or `applied` when the internship saved
 * is one the person applied to here, which shows among the applications); a refusal (400, 404) renders the tracker
 * again with the sentence. A guest is sent to sign in.
 *
 * The applications show `TRACKER_PAGE` at a time, newest first: `?applications-from=` (an application's place,
 * `mineCursorOf`) shows those from that one on, which the "Older applications" link asks for (and "Newest applications"
 * leads back); the withdraw and stipend forms carry it (`applications-from`), so that their answer comes back to the
 * same page. A value that is not a place counts as none. Only the page's applications are read with their internships.
 *
 * Each status shows its newest `TRACKER_PAGE` items; `?show-{status}=N` shows N of that status (a multiple of
 * `TRACKER_PAGE` up to 500; another value counts as the default), which each group's "Show more" link asks for. Only
 * the items shown are read with their listings, and only what a row shows of those goes to the page (`TrackerItem`).
 * Each link keeps the other part's place.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { refusalText } from "@/lib/refusals.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import SavedTracker, { SAVED_TRACKER_TEXT } from "@/islands/SavedTracker.tsx";
import { MyApplications } from "@/components/applications/MyApplications.tsx";
import {
  inListOrder,
  isSavedKind,
  MAX_SAVED,
  SAVED_STATUSES,
  SavedChangeSchema,
  savedItemsOf,
  savedRecordsOf,
  type SavedStatus,
  saveItem,
  type TrackerItem,
  unsaveItem,
} from "@/lib/saved/saved.ts";
import { trackerItemOf } from "@/lib/browser/tracker.ts";
import {
  applicationTo,
  appliedOn,
  mineCursorOf,
  MineCursorSchema,
  type MinePlace,
  type MyApplication,
  myApplications,
} from "@/lib/applications/applications.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** Writes fall under the per-person limit `saved` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "saved" };

/** Applications a page shows; saved items each status shows at first, and how many more each "Show more" adds. */
const TRACKER_PAGE = 20;

/** `?show-{status}=N`: how many items of that status to show (see the module docstring). */
const ShownSchema = z.coerce.number().int().min(TRACKER_PAGE).max(MAX_SAVED).multipleOf(TRACKER_PAGE)
  .catch(TRACKER_PAGE);

/** `?applications-from=`: the place of the first application shown (see the module docstring), or none. */
const FromSchema = MineCursorSchema.optional().catch(undefined);

/** The query parameter of the applications' page. */
const FROM_PARAM = "applications-from";

/** The place `url` asks the applications to start from, or none. */
function fromOf(url: URL): MinePlace | undefined {
  return FromSchema.parse(url.searchParams.get(FROM_PARAM) ?? undefined);
}

/**
 * A page of the applications sent here (with the place it starts from, `from`, and the links to the older ones and back
 * to the newest, when there are), the saved items shown (each status's first ones), the items per status in all, the
 * "Show more" link of each status with more, the time the page was made (ms), and why a plain submit was refused.
 */
interface Data {
  applications: MyApplication[];
  from?: string;
  olderHref?: string;
  newestHref?: string;
  items: TrackerItem[];
  totals: Record<SavedStatus, number>;
  more: Partial<Record<SavedStatus, { href: string; count: number }>>;
  now: number;
  error?: string;
}

/** What `?done=` reports, as catalogue messages. */
const DONE: Record<string, MessageKey> = {
  saved: "me.tracker.done.saved",
  removed: "me.tracker.done.removed",
  updated: "me.tracker.done.updated",
  applied: "me.tracker.done.applied",
};

const FIELDS = ["intent", "kind", "id", "save", "status", "note"] as const;

/** How many items of each status `url` asks to show (`?show-{status}=N`). */
function shownOf(url: URL): Record<SavedStatus, number> {
  const shown = {} as Record<SavedStatus, number>;
  for (const status of SAVED_STATUSES) shown[status] = ShownSchema.parse(url.searchParams.get(`show-${status}`));
  return shown;
}

/** The tracker's address with `shown` items of each status and the applications from `from` (none: the newest). */
function trackerHref(shown: Record<SavedStatus, number>, from: MinePlace | undefined, fragment: string): string {
  const params = new URLSearchParams();
  if (from) params.set(FROM_PARAM, mineCursorOf(from));
  for (const status of SAVED_STATUSES) {
    if (shown[status] !== TRACKER_PAGE) params.set(`show-${status}`, String(shown[status]));
  }
  return `/me/tracker${params.size ? `?${params}` : ""}#${fragment}`;
}

/**
 * The page's data for `userId` showing the applications from `from` on (none: the newest) and `shown` items of each
 * status: the saved items without the internships applied to here (their person entries read by key: at most the 500
 * saved, whatever the person applied to), newest change first in each status; only the applications and items shown
 * are read with their listings.
 */
async function trackerOf(
  kv: Deno.Kv,
  userId: string,
  shown: Record<SavedStatus, number>,
  from: MinePlace | undefined,
): Promise<Data> {
  const [mine, { records, sentTo }] = await Promise.all([
    myApplications(kv, { userId, limit: TRACKER_PAGE, from }),
    savedRecordsOf(kv, userId).then(async (records) => {
      const internships = records.flatMap((record) => record.kind === "internships" ? [record.id] : []);
      return { records, sentTo: await appliedOn(kv, userId, internships) };
    }),
  ]);
  const kept = inListOrder(records).filter((record) =>
    record.kind !== "internships" || !Object.hasOwn(sentTo, record.id)
  );
  const totals = {} as Record<SavedStatus, number>;
  const more: Data["more"] = {};
  const page = SAVED_STATUSES.flatMap((status) => {
    const group = kept.filter((record) => record.status === status);
    totals[status] = group.length;
    if (group.length > shown[status]) {
      const next = group[shown[status]];
      more[status] = {
        href: trackerHref(
          { ...shown, [status]: shown[status] + TRACKER_PAGE },
          from,
          `tracker-${next.kind}-${next.id}`,
        ),
        count: Math.min(TRACKER_PAGE, group.length - shown[status]),
      };
    }
    return group.slice(0, shown[status]);
  });
  const items = (await savedItemsOf(kv, page)).map(trackerItemOf);
  return {
    applications: mine.applications,
    from: from && mineCursorOf(from),
    olderHref: mine.next ? trackerHref(shown, mine.next, `application-${mine.next.id}`) : undefined,
    newestHref: from ? trackerHref(shown, undefined, "applications-heading") : undefined,
    items,
    totals,
    more,
    now: Date.now(),
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await trackerOf(ctx.state.services.kv, ctx.state.user.id, shownOf(ctx.url), fromOf(ctx.url)));
  },
  async POST(req, ctx) {
    const { user, services: { kv } } = ctx.state;
    if (!user) return seeOther(`/sign-in?${new URLSearchParams({ callbackURL: "/me/tracker" })}`);
    const form = await readFormFields(req, FIELDS);
    if (!isSavedKind(form.kind)) throw new NotFoundError();
    const ref = { userId: user.id, kind: form.kind, id: form.id };
    const again = async (status: number, error: string) =>
      ctx.render({ ...await trackerOf(kv, user.id, shownOf(ctx.url), fromOf(ctx.url)), error }, { status });
    try {
      if (form.intent === "remove" || (form.intent === "save" && form.save === "0")) {
        await unsaveItem(kv, ref);
        return seeOther("/me/tracker?done=removed");
      }
      if (form.intent === "save") {
        await saveItem(kv, { ...ref, change: { note: undefined } });
        const sent = form.kind === "internships" &&
          await applicationTo(kv, { userId: user.id, internshipId: form.id });
        return seeOther(sent ? "/me/tracker?done=applied" : `/me/tracker?done=saved#tracker-${form.kind}-${form.id}`);
      }
      const change = SavedChangeSchema.safeParse({ status: form.status || undefined, note: form.note });
      if (!change.success) {
        const problem = fieldProblems(change.error.issues)[0];
        return again(400, problem ? fieldText(ctx.state.t, problem) : ctx.state.t("me.tracker.checkFields"));
      }
      await saveItem(kv, { ...ref, change: change.data });
      return seeOther(`/me/tracker?done=updated#tracker-${form.kind}-${form.id}`);
    } catch (error) {
      if (error instanceof DomainError) return again(errorResponse(error).status, refusalText(ctx.state.t, error));
      throw error;
    }
  },
});

export default define.page<Data>(function TrackerPage({ data, url }) {
  const t = useT();
  const doneKey = DONE[url.searchParams.get("done") ?? ""];
  const done = doneKey ? t(doneKey) : undefined;
  return (
    <section aria-labelledby="page-title">
      <PageHead title={t("me.tracker.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("me.tracker.title")}</h1>
      <p class="mt-2 text-slate-700">{t("me.tracker.lead")}</p>
      <MyApplications
        applications={data.applications}
        now={data.now}
        changed={url.searchParams.get("changed")}
        from={data.from}
        olderHref={data.olderHref}
        newestHref={data.newestHref}
      />
      <h2 class="mt-8 text-xl font-semibold text-slate-900">{t("me.tracker.saved")}</h2>
      {(data.error || done) && (
        <div class="mt-4">
          {data.error ? <Notice kind="error">{data.error}</Notice> : <Notice kind="success">{done}</Notice>}
        </div>
      )}
      <div class="mt-4">
        <SavedTracker items={data.items} totals={data.totals} more={data.more} text={t.island(SAVED_TRACKER_TEXT)} />
      </div>
    </section>
  );
});
