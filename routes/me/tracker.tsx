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
 * 303 to the tracker, which says what was done (`?done=saved|removed|updated`); a refusal (400, 404) renders the
 * tracker again with the sentence. A guest is sent to sign in.
 */
import { define } from "@/lib/platform/define.ts";
import { refusalText } from "@/lib/refusals.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import SavedTracker, { SAVED_TRACKER_TEXT } from "@/islands/SavedTracker.tsx";
import { MyApplications } from "@/components/applications/MyApplications.tsx";
import { isSavedKind, listSaved, SavedChangeSchema, type SavedItem, saveItem, unsaveItem } from "@/lib/saved/saved.ts";
import { type MyApplication, myApplications } from "@/lib/applications/applications.ts";
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

/** The applications sent here, the saved items, the time the page was made (ms), and why a plain submit was refused. */
interface Data {
  applications: MyApplication[];
  items: SavedItem[];
  now: number;
  error?: string;
}

/** What `?done=` reports, as catalogue messages. */
const DONE: Record<string, MessageKey> = {
  saved: "me.tracker.done.saved",
  removed: "me.tracker.done.removed",
  updated: "me.tracker.done.updated",
};

const FIELDS = ["intent", "kind", "id", "save", "status", "note"] as const;

/** The page's data for `userId`: the saved items without the internships applied to here. */
async function trackerOf(kv: Deno.Kv, userId: string): Promise<Data> {
  const [applications, saved] = await Promise.all([
    myApplications(kv, { userId }),
    listSaved(kv, userId, {}),
  ]);
  const sent = new Set(applications.map((application) => application.internshipId));
  const items = saved.filter((item) => item.kind !== "internships" || !sent.has(item.id));
  return { applications, items, now: Date.now() };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await trackerOf(ctx.state.services.kv, ctx.state.user.id));
  },
  async POST(req, ctx) {
    const { user, services: { kv } } = ctx.state;
    if (!user) return seeOther(`/sign-in?${new URLSearchParams({ callbackURL: "/me/tracker" })}`);
    const form = await readFormFields(req, FIELDS);
    if (!isSavedKind(form.kind)) throw new NotFoundError();
    const ref = { userId: user.id, kind: form.kind, id: form.id };
    const again = async (status: number, error: string) =>
      ctx.render({ ...await trackerOf(kv, user.id), error }, { status });
    try {
      if (form.intent === "remove" || (form.intent === "save" && form.save === "0")) {
        await unsaveItem(kv, ref);
        return seeOther("/me/tracker?done=removed");
      }
      if (form.intent === "save") {
        await saveItem(kv, { ...ref, change: { note: undefined } });
        return seeOther(`/me/tracker?done=saved#tracker-${form.kind}-${form.id}`);
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
      <MyApplications applications={data.applications} now={data.now} changed={url.searchParams.get("changed")} />
      <h2 class="mt-8 text-xl font-semibold text-slate-900">{t("me.tracker.saved")}</h2>
      <p class="mt-1 text-sm text-slate-700">{t("me.tracker.savedLead")}</p>
      {(data.error || done) && (
        <div class="mt-4">
          {data.error ? <Notice kind="error">{data.error}</Notice> : <Notice kind="success">{done}</Notice>}
        </div>
      )}
      <div class="mt-4">
        <SavedTracker items={data.items} text={t.island(SAVED_TRACKER_TEXT)} />
      </div>
    </section>
  );
});
