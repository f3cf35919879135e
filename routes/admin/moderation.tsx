/**
 * `/admin/moderation` (admins only, by `_middleware.ts`): the moderation queue (docs/decisions.md, Trust,
 * "Moderation"), held listings first, the longest waiting on top, then rejected ones. Each shows its kind, title,
 * owner, why it is held (with the never-pay phrases its text holds), and a form to approve or reject it with a note
 * to the owner. Plain links and forms, so it works without JavaScript: `?status=held|rejected` and `?kind=` narrow
 * the queue; `POST` (fields `kind`, `id`, `decision`, `note`, and `updatedAt`, the version shown) decides and answers
 * 303 back to the same view; a listing changed since it was shown is not decided (`?problem=changed`: the refusal in
 * the reader's words above the queue, which shows its new text).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { adminListQuery } from "@/lib/http/list_pages.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, TextAreaField } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { moderationReasonText } from "@/lib/browser/moderation_format.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import {
  decideListing,
  ModerationDecisionSchema,
  type ModerationItem,
  type ModerationPage,
  ModerationQuerySchema,
  moderationQueue,
  NOTE_MAX,
} from "@/lib/moderation/admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { ConflictError } from "@/lib/errors.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** Listings per page. */
const PAGE_SIZE = 20;

/** The view asked for: the queue page, its filters, and the decision just made (`approve`, `reject`) or a problem. */
interface Data {
  page: ModerationPage;
  status: "held" | "rejected" | undefined;
  kind: "internships" | "opportunities" | undefined;
  done: string | null;
  problem: string | null;
}

/** The query string of a view of the queue (empty parts left out). */
function viewQuery(parts: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(parts)) if (value) params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : "";
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const query = adminListQuery(ModerationQuerySchema, params, PAGE_SIZE);
    return ctx.render({
      page: await moderationQueue(ctx.state.services.kv, query),
      status: query.status,
      kind: query.kind,
      done: params.get("done"),
      problem: params.get("problem"),
    });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const form = await readFormFields(req, ["kind", "id", "decision", "note", "updatedAt", "status", "filter"]);
    const back = { status: form.status, kind: form.filter };
    const body = ModerationDecisionSchema.safeParse({
      decision: form.decision,
      note: form.note,
      updatedAt: form.updatedAt || undefined,
    });
    if (!body.success) {
      return seeOther(`/admin/moderation${viewQuery({ ...back, problem: "decision" })}`);
    }
    try {
      await decideListing(ctx.state.services, {
        kind: form.kind,
        id: form.id,
        admin: ctx.state.user,
        body: body.data,
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return seeOther(`/admin/moderation${viewQuery({ ...back, problem: "changed" })}`);
    }
    return seeOther(`/admin/moderation${viewQuery({ ...back, done: body.data.decision })}`);
  },
});

/** The owner's name of an item's listing, with their role. */
function ownerOf(t: Translate, item: ModerationItem): string {
  const owner = item.kind === "internships" ? item.listing.user : item.listing.postedBy;
  return owner ? `${owner.name} (${t.dynamic(`admin.roles.${owner.role}`)})` : t("common.formerMember");
}

/** One listing of the queue with its decision form. */
function QueueItem({ item, status, kind }: { item: ModerationItem; status?: string; kind?: string }) {
  const { listing, moderation } = item;
  const path = `/${item.kind}/${listing.id}`;
  const noteId = `note-${item.kind}-${listing.id}`;
  const t = useT();
  const title = () => <span class="sr-only">{` ${listing.title}`}</span>;
  return (
    <li class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-center gap-2">
        <Badge tone="indigo">{t.dynamic(`admin.moderation.kind.${item.kind}`)}</Badge>
        {moderation.status === "held"
          ? <Badge tone="amber">{t("admin.moderation.held")}</Badge>
          : moderation.status === "rejected"
          ? <Badge tone="red">{t("admin.moderation.rejected")}</Badge>
          : <Badge>{t("admin.moderation.approved")}</Badge>}
        {item.heldAt && (
          <span class="text-sm text-slate-700">
            {t.rich("admin.moderation.heldOn", {
              time: () => <time datetime={item.heldAt!}>{t.date(item.heldAt!)}</time>,
            })}
          </span>
        )}
      </div>
      <h2 class="mt-2 font-semibold text-slate-900">
        <a href={path} class="underline hover:text-indigo-800">{listing.title}</a>
      </h2>
      <p class="text-sm text-slate-700">
        {item.kind === "internships"
          ? t("admin.moderation.postedFor", {
            owner: ownerOf(t, item),
            organization: item.listing.hiringOrganization,
          })
          : t("admin.moderation.postedBy", { owner: ownerOf(t, item) })}
      </p>
      <p class="mt-2 text-sm text-slate-900">
        {t("admin.moderation.why", { reason: moderationReasonText(t, moderation, listing) })}
      </p>
      {listing.description && (
        <details class="mt-2 text-sm">
          <summary class="cursor-pointer text-indigo-700 underline">{t("admin.moderation.readDescription")}</summary>
          <p class="mt-2 whitespace-pre-line text-slate-800">{listing.description}</p>
        </details>
      )}
      <form method="post" class="mt-3 space-y-2">
        <input type="hidden" name="kind" value={item.kind} />
        <input type="hidden" name="id" value={listing.id} />
        <input type="hidden" name="updatedAt" value={listing.updatedAt} />
        <input type="hidden" name="status" value={status ?? ""} />
        <input type="hidden" name="filter" value={kind ?? ""} />
        <TextAreaField id={noteId} name="note" label={t("admin.moderation.note")} rows={2} maxLength={NOTE_MAX} />
        <div class="flex flex-wrap gap-2">
          {moderation.status !== "clear" && (
            <button
              type="submit"
              name="decision"
              value="approve"
              class="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800"
            >
              {t.rich("admin.moderation.approve", { title })}
            </button>
          )}
          {moderation.status !== "rejected" && (
            <button type="submit" name="decision" value="reject" class={SECONDARY_BUTTON}>
              {t.rich("admin.moderation.reject", { title })}
            </button>
          )}
        </div>
      </form>
    </li>
  );
}

const TABS: [Data["status"], MessageKey][] = [
  [undefined, "admin.moderation.tab.all"],
  ["held", "admin.moderation.tab.held"],
  ["rejected", "admin.moderation.tab.rejected"],
];

/** The kind filters, "both" first. */
const KINDS: [Data["kind"], MessageKey][] = [
  [undefined, "admin.moderation.bothKinds"],
  ["internships", "admin.moderation.internships"],
  ["opportunities", "admin.moderation.opportunities"],
];

export default define.page<Data>(function AdminModerationPage({ data }) {
  const { page, status, kind, done, problem } = data;
  const { offset, total } = page.pagination;
  const count = (tab: Data["status"]) =>
    tab === "held" ? page.counts.held : tab === "rejected" ? page.counts.rejected : page.counts.held +
      page.counts.rejected;
  const href = (parts: Record<string, string | number | undefined>) => `/admin/moderation${viewQuery(parts)}`;
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.moderation") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.moderation")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.moderation.lead")}</p>
      </div>
      {done === "approve" && <Notice kind="success">{t("admin.moderation.approvedDone")}</Notice>}
      {done === "reject" && <Notice kind="success">{t("admin.moderation.rejectedDone")}</Notice>}
      {problem && (
        <Notice kind="error">
          {problem === "changed" ? t("common.refusal.listingChanged") : t("admin.moderation.problem")}
        </Notice>
      )}
      <nav aria-label={t("admin.moderation.views")} class="flex flex-wrap gap-2">
        {TABS.map(([value, label]) => (
          <a
            key={label}
            href={href({ status: value, kind })}
            aria-current={status === value ? "page" : undefined}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              status === value ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {t(label)} <span class="tabular-nums">({t.number(count(value))})</span>
          </a>
        ))}
        <span class="mx-1 self-center text-slate-400" aria-hidden="true">|</span>
        {KINDS.map(([value, label]) => (
          <a
            key={label}
            href={href({ status, kind: value })}
            aria-current={kind === value ? "page" : undefined}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              kind === value ? "bg-slate-800 text-white ring-slate-800" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {t(label)}
          </a>
        ))}
      </nav>
      {page.items.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            {t(status === "rejected" ? "admin.moderation.noneRejected" : "admin.moderation.noneHeld")}
          </p>
        )
        : (
          <ul class="space-y-3">
            {page.items.map((item) => (
              <QueueItem key={`${item.kind}-${item.listing.id}`} item={item} status={status} kind={kind} />
            ))}
          </ul>
        )}
      <Pagination
        position={pagePosition(t, offset, page.items.length, total)}
        prev={offset > 0 ? { href: href({ status, kind, offset: Math.max(0, offset - PAGE_SIZE) }) } : null}
        next={offset + PAGE_SIZE < total ? { href: href({ status, kind, offset: offset + PAGE_SIZE }) } : null}
      />
    </section>
  );
});
