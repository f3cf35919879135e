/**
 * `/opportunities/mine`: "My submissions", the signed-in user's opportunities in every state
 * (awaiting review, published, rejected), newest first, paged, with why moderation holds one (docs/decisions.md,
 * Trust, "Moderation") or why review rejected one, and a link to edit one not published and submit it again
 * (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"). Guests are sent to sign in.
 * `?submitted=1` (after the submit form) adds a confirmation that says what happens next: the newest submission (the
 * one just sent) published at once, or waiting for an admin's review (docs/decisions.md, Opportunities).
 */
import type { ComponentChildren } from "preact";
import { define } from "@/lib/platform/define.ts";
import { Notice } from "@/components/forms.tsx";
import { OpportunityCard } from "@/components/opportunities/OpportunityCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { moderationReasonText } from "@/lib/browser/moderation_format.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { canResubmit } from "@/lib/opportunities/policy.ts";
import {
  listOpportunities,
  type OpportunityPage,
  OpportunityQuerySchema,
  statusOf,
} from "@/lib/opportunities/opportunities.ts";
import { useT } from "@/lib/i18n/context.ts";

const PAGE_SIZE = 20;

export const handler = define.handlers<OpportunityPage>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const own = { mine: "true", limit: String(PAGE_SIZE) };
    const parsed = OpportunityQuerySchema.safeParse({ ...own, offset: ctx.url.searchParams.get("offset") ?? "0" });
    const query = parsed.success ? parsed.data : OpportunityQuerySchema.parse(own);
    return ctx.render(await listOpportunities(ctx.state.services.kv, query, ctx.state.user));
  },
});

export default define.page<OpportunityPage>(function MySubmissionsPage({ data, url, state }) {
  const t = useT();
  const user = state.user;
  const { opportunities, pagination: { offset, total } } = data;
  const sr = (chunks: ComponentChildren[]) => <span class="sr-only">{chunks}</span>;
  const sent = offset === 0 ? opportunities[0] : undefined;
  const published = sent !== undefined && statusOf(sent) === "approved";
  return (
    <section aria-labelledby="page-title">
      <PageHead title={t("opportunities.list.mine")} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("opportunities.list.mine")}</h1>
        <a href="/opportunities/new" class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white">
          {t("opportunities.list.submit")}
        </a>
      </div>
      {url.searchParams.has("submitted") && (
        <div class="mt-4">
          <Notice kind="success" title={t("opportunities.mine.thanks")}>
            {t(published ? "opportunities.mine.published" : "opportunities.mine.submitted")}
          </Notice>
        </div>
      )}
      {opportunities.length === 0
        ? <p class="mt-8 text-slate-700">{t("opportunities.mine.empty")}</p>
        : (
          <ul class="mt-6 grid gap-4 md:grid-cols-2">
            {opportunities.map((o) => (
              <li key={o.id}>
                <OpportunityCard o={o} status={statusOf(o)}>
                  {o.moderation.status !== "clear" && (
                    <p class="mt-3 text-sm text-slate-800">
                      {t("opportunities.mine.why", { reason: moderationReasonText(t, o.moderation, o) })}
                    </p>
                  )}
                  {!o.isActive && o.moderation.status === "clear" && (
                    <p class="mt-3 text-sm text-slate-800">
                      {o.rejection?.reason
                        ? t("opportunities.mine.reason", { reason: o.rejection.reason })
                        : t("opportunities.detail.noReason")}
                    </p>
                  )}
                  {canResubmit(user, o) && (
                    <a
                      href={`/opportunities/${o.id}/edit`}
                      class="mt-2 inline-block text-sm font-medium text-indigo-700 underline"
                    >
                      {t.rich(o.isActive ? "opportunities.mine.edit" : "opportunities.mine.editAgain", {
                        title: o.title,
                        sr,
                      })}
                    </a>
                  )}
                </OpportunityCard>
              </li>
            ))}
          </ul>
        )}
      <Pagination
        class="mt-6"
        position={pagePosition(null, offset, opportunities.length, total)}
        prev={offset > 0 ? { href: `/opportunities/mine?offset=${Math.max(0, offset - PAGE_SIZE)}` } : null}
        next={offset + PAGE_SIZE < total ? { href: `/opportunities/mine?offset=${offset + PAGE_SIZE}` } : null}
      />
    </section>
  );
});
