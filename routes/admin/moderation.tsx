/**
 * `/admin/moderation` (admins only, by `_middleware.ts`): the moderation queue (docs/decisions.md, Trust,
 * "Moderation"), held listings first, the longest waiting on top, then rejected ones. Each shows its kind, title,
 * owner, why it is held (with the never-pay phrases its text holds), and a form to approve or reject it with a note
 * to the owner. Plain links and forms, so it works without JavaScript: `?status=held|rejected` and `?kind=` narrow
 * the queue; `POST` (fields `kind`, `id`, `decision`, `note`) decides and answers 303 back to the same view.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, TextAreaField } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { moderationReasonText } from "@/lib/browser/moderation_format.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { formatDate } from "@/lib/dates.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import {
  decideListing,
  ModerationDecisionSchema,
  type ModerationItem,
  type ModerationPage,
  ModerationQuerySchema,
  moderationQueue,
  NOTE_MAX,
} from "@/lib/moderation/admin.ts";

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
    const parsed = ModerationQuerySchema.safeParse({
      ...params.get("status") ? { status: params.get("status") } : {},
      ...params.get("kind") ? { kind: params.get("kind") } : {},
      offset: params.get("offset") ?? "0",
      limit: String(PAGE_SIZE),
    });
    const query = parsed.success ? parsed.data : ModerationQuerySchema.parse({ limit: String(PAGE_SIZE) });
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
    const form = await readFormFields(req, ["kind", "id", "decision", "note", "status", "filter"]);
    const back = { status: form.status, kind: form.filter };
    const body = ModerationDecisionSchema.safeParse({ decision: form.decision, note: form.note });
    if (!body.success) {
      return seeOther(`/admin/moderation${viewQuery({ ...back, problem: "decision" })}`);
    }
    await decideListing(ctx.state.services.kv, {
      kind: form.kind,
      id: form.id,
      admin: ctx.state.user,
      body: body.data,
    });
    return seeOther(`/admin/moderation${viewQuery({ ...back, done: body.data.decision })}`);
  },
});

/** The owner's name of an item's listing. */
function ownerOf(item: ModerationItem): string {
  const owner = item.kind === "internships" ? item.listing.user : item.listing.postedBy;
  return owner ? `${owner.name} (${owner.role})` : FORMER_MEMBER;
}

/** One listing of the queue with its decision form. */
function QueueItem({ item, status, kind }: { item: ModerationItem; status?: string; kind?: string }) {
  const { listing, moderation } = item;
  const path = `/${item.kind}/${listing.id}`;
  const noteId = `note-${item.kind}-${listing.id}`;
  return (
    <li class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-center gap-2">
        <Badge tone="indigo">{item.kind === "internships" ? "Internship" : "Opportunity"}</Badge>
        {moderation.status === "held"
          ? <Badge tone="amber">Held for review</Badge>
          : moderation.status === "rejected"
          ? <Badge tone="red">Rejected</Badge>
          : <Badge>Approved</Badge>}
        {item.heldAt && (
          <span class="text-sm text-slate-700">
            held <time datetime={item.heldAt}>{formatDate(item.heldAt)}</time>
          </span>
        )}
      </div>
      <h2 class="mt-2 font-semibold text-slate-900">
        <a href={path} class="underline hover:text-indigo-800">{listing.title}</a>
      </h2>
      <p class="text-sm text-slate-700">
        Posted by {ownerOf(item)}
        {item.kind === "internships" ? ` for ${item.listing.hiringOrganization}` : ""}
      </p>
      <p class="mt-2 text-sm text-slate-900">Why: {moderationReasonText(moderation, listing)}</p>
      {listing.description && (
        <details class="mt-2 text-sm">
          <summary class="cursor-pointer text-indigo-700 underline">Read the description</summary>
          <p class="mt-2 whitespace-pre-line text-slate-800">{listing.description}</p>
        </details>
      )}
      <form method="post" class="mt-3 space-y-2">
        <input type="hidden" name="kind" value={item.kind} />
        <input type="hidden" name="id" value={listing.id} />
        <input type="hidden" name="status" value={status ?? ""} />
        <input type="hidden" name="filter" value={kind ?? ""} />
        <TextAreaField id={noteId} name="note" label="Note to the owner (optional)" rows={2} maxLength={NOTE_MAX} />
        <div class="flex flex-wrap gap-2">
          {moderation.status !== "clear" && (
            <button
              type="submit"
              name="decision"
              value="approve"
              class="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800"
            >
              Approve and list<span class="sr-only">{` ${listing.title}`}</span>
            </button>
          )}
          {moderation.status !== "rejected" && (
            <button type="submit" name="decision" value="reject" class={SECONDARY_BUTTON}>
              Reject<span class="sr-only">{` ${listing.title}`}</span>
            </button>
          )}
        </div>
      </form>
    </li>
  );
}

const TABS: [Data["status"], string][] = [[undefined, "All"], ["held", "Held"], ["rejected", "Rejected"]];

export default define.page<Data>(function AdminModerationPage({ data }) {
  const { page, status, kind, done, problem } = data;
  const { offset, total } = page.pagination;
  const count = (tab: Data["status"]) =>
    tab === "held" ? page.counts.held : tab === "rejected" ? page.counts.rejected : page.counts.held +
      page.counts.rejected;
  const href = (parts: Record<string, string | number | undefined>) => `/admin/moderation${viewQuery(parts)}`;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Moderation · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Moderation</h1>
        <p class="mt-2 text-slate-700">
          Listings that ask applicants for money, or that three students reported, wait here hidden from students.
          Approve one whose fee is real and disclosed, or that the reports got wrong; reject the rest.
        </p>
      </div>
      {done === "approve" && <Notice kind="success">The listing was approved: students can see it now.</Notice>}
      {done === "reject" && <Notice kind="success">The listing was rejected: students will not see it.</Notice>}
      {problem && <Notice kind="error">Choose Approve or Reject.</Notice>}
      <nav aria-label="Queue views" class="flex flex-wrap gap-2">
        {TABS.map(([value, label]) => (
          <a
            key={label}
            href={href({ status: value, kind })}
            aria-current={status === value ? "page" : undefined}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              status === value ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {label} <span class="tabular-nums">({count(value)})</span>
          </a>
        ))}
        <span class="mx-1 self-center text-slate-400" aria-hidden="true">|</span>
        {([[undefined, "Both kinds"], ["internships", "Internships"], ["opportunities", "Opportunities"]] as const).map(
          (
            [value, label],
          ) => (
            <a
              key={label}
              href={href({ status, kind: value })}
              aria-current={kind === value ? "page" : undefined}
              class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
                kind === value ? "bg-slate-800 text-white ring-slate-800" : "bg-white text-slate-800 ring-slate-300"
              }`}
            >
              {label}
            </a>
          ),
        )}
      </nav>
      {page.items.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            {status === "rejected" ? "No rejected listings." : "Nothing waits for review."}
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
        position={pagePosition(null, offset, page.items.length, total)}
        prev={offset > 0 ? { href: href({ status, kind, offset: Math.max(0, offset - PAGE_SIZE) }) } : null}
        next={offset + PAGE_SIZE < total ? { href: href({ status, kind, offset: offset + PAGE_SIZE }) } : null}
      />
    </section>
  );
});
