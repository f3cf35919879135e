/**
 * `/admin/opportunities`: the review queue (admins only, by `_middleware.ts`): tabs per state with counts, search,
 * pages, approve and reject (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"). The server renders
 * the page its query asks for (`status`, `search`, `offset`; a value the queue refuses gives the awaiting tab's first
 * page; `reject={id}` opens that row's reason form), so the queue works without JavaScript (docs/decisions.md,
 * Islands, "Forms work without JavaScript"): `POST` (fields `id`, `action` `approve` or `reject`, `reason`,
 * `updatedAt`, the version shown, and the view's `status`, `search`, `offset`) reviews as
 * `PATCH /api/admin/opportunities/{id}` does and answers 303 back to the view with `approved={id}` or `rejected={id}`,
 * or renders the view again with the refusal's sentence, a refused reject with its reason form and the reason as sent
 * (400, 404, 409, 503). The island enhances the rest.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import AdminOpportunitiesQueue, {
  ADMIN_OPPORTUNITIES_TEXT,
  type Queue,
  QUEUE_PAGE_SIZE,
  QUEUE_TABS,
  type QueueStatus,
} from "@/islands/AdminOpportunitiesQueue.tsx";
import {
  type AdminOpportunityQuery,
  AdminOpportunityQuerySchema,
  adminQueue,
  getOpportunity,
  reviewOpportunity,
  ReviewSchema,
} from "@/lib/opportunities/opportunities.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { DomainError } from "@/lib/errors.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import type { User } from "@/lib/users/users.ts";
import { refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  queue: Queue;
  status: QueueStatus;
  /** The search the page answers ("": none). */
  search: string;
  rejecting: { id: string; reason: string } | null;
  /** What `?approved=` or `?rejected=` says was done, with the opportunity's title; or null. */
  done: { key: "admin.opportunities.approvedDone" | "admin.opportunities.rejectedDone"; title: string } | null;
  /** A refused review's sentence, in the reader's language. */
  problem: string | null;
}

/** A view of the queue: its tab, the search as typed ("": none) and the queue's query. */
interface View {
  status: QueueStatus;
  search: string;
  query: AdminOpportunityQuery;
}

/** The view a page's parameters (or a form's fields) name; with a value the queue refuses, the tab's first page. */
function viewOf(given: (name: string) => string | null): View {
  const status = QUEUE_TABS.find((tab) => tab === given("status")) ?? "pending";
  const fixed = { status, limit: String(QUEUE_PAGE_SIZE) };
  const search = given("search") ?? "";
  const parsed = AdminOpportunityQuerySchema.safeParse({
    ...fixed,
    search: search || undefined,
    offset: given("offset") || undefined,
  });
  if (!parsed.success) return { status, search: "", query: AdminOpportunityQuerySchema.parse(fixed) };
  return { status, search, query: parsed.data };
}

/** The page's query of a view (its defaults left out), with `more`. */
function viewQuery(given: (name: string) => string | null, more: Record<string, string>): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ["status", "search", "offset"]) {
    const value = given(name);
    if (value) params.set(name, value);
  }
  for (const [name, value] of Object.entries(more)) params.set(name, value);
  return params;
}

/** The sentence of what `?approved=` or `?rejected=` says was done, or null (an unknown id says nothing). */
async function doneOf(kv: Deno.Kv, admin: User, params: URLSearchParams): Promise<Data["done"]> {
  const id = params.get("approved") ?? params.get("rejected");
  if (!id || id.length > 100) return null;
  try {
    const { title } = await getOpportunity(kv, id, admin);
    const key = params.has("approved") ? "admin.opportunities.approvedDone" : "admin.opportunities.rejectedDone";
    return { key, title };
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const params = ctx.url.searchParams;
    assertSignedIn(ctx.state);
    const { status, search, query } = viewOf((name) => params.get(name));
    const reject = params.get("reject");
    const [queue, done] = await Promise.all([adminQueue(kv, query), doneOf(kv, ctx.state.user, params)]);
    const rejecting = reject ? { id: reject, reason: "" } : null;
    return ctx.render({ queue, status, search, rejecting, done, problem: null });
  },

  async POST(req, ctx) {
    const { services, t } = ctx.state;
    const form = await readFormFields(req, ["id", "action", "reason", "updatedAt", "status", "search", "offset"]);
    const given = (name: string) => form[name as keyof typeof form] || null;
    const again = async (status: number, problem: string) => {
      const { query, ...view } = viewOf(given);
      const rejecting = form.action === "reject" ? { id: form.id, reason: form.reason } : null;
      const queue = await adminQueue(services.kv, query);
      return ctx.render({ queue, ...view, rejecting, done: null, problem }, { status });
    };
    const review = ReviewSchema.safeParse({ action: form.action, reason: form.reason, updatedAt: form.updatedAt });
    if (!review.success || !form.id || form.id.length > 100) {
      return await again(400, t("admin.opportunities.reviewProblem"));
    }
    try {
      const audit = adminAudit(ctx.state, { action: "opportunity.review", targetKind: "opportunity" });
      await reviewOpportunity(services.kv, { id: form.id, review: review.data, audit });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return await again(errorResponse(error).status, refusalText(t, error));
    }
    const done = review.data.action === "approve" ? "approved" : "rejected";
    return seeOther(`/admin/opportunities?${viewQuery(given, { [done]: form.id })}`);
  },
});

export default define.page<Data>(function AdminOpportunitiesPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.opportunities.pageTitle") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.opportunities")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.opportunities.lead")}</p>
      </div>
      {data.done && <Notice kind="success" title={t(data.done.key, { title: data.done.title })} />}
      {data.problem && <Notice kind="error" title={t("admin.opportunities.notSaved")}>{data.problem}</Notice>}
      <AdminOpportunitiesQueue
        initial={data.queue}
        status={data.status}
        search={data.search}
        rejecting={data.rejecting}
        text={t.island(ADMIN_OPPORTUNITIES_TEXT)}
      />
    </section>
  );
});
