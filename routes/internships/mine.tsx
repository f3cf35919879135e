/**
 * `/internships/mine` ("My internships"): the signed-in user's own live listings, active or
 * not, newest first, `PAGE_SIZE` a page (`?offset=`; an invalid offset shows the first page),
 * each with edit, "Close applications" or "Reopen applications" (docs/decisions.md, Open and closed listings, "Closed by
 * the poster") and delete (a soft delete after confirmation), "Applicants (n)" for one that takes applications here
 * (docs/decisions.md, Applications, "The poster's list") and, for one that moderation withholds, why
 * (docs/decisions.md, Trust, "Moderation"); someone an admin made a user again reads theirs without those
 * (docs/decisions.md, Internships, "A poster made a user again"). Answered by the domain's owner filter (`mine`), so the
 * cost follows the user's listing count. Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { canPost } from "@/lib/internships/policy.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { PageHead } from "@/components/PageHead.tsx";
import {
  ApplicationsChangedNotice,
  ApplicationsToggle,
  EditInternshipLink,
  PostInternshipLink,
} from "@/components/internships/links.tsx";
import InternshipDeleteButton, { INTERNSHIP_DELETE_TEXT } from "@/islands/InternshipDeleteButton.tsx";
import { moderationReasonText } from "@/lib/browser/moderation_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type InternshipPage, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { applicationCount } from "@/lib/applications/pipeline.ts";
import { TIMEOUT_AFTER_DEADLINE_DAYS } from "@/lib/applications/applications.ts";

/** Listings per page. */
const PAGE_SIZE = 20;

/** The page of listings, and the number of applications of each that takes applications here, by id. */
type Data = InternshipPage & { applicants: Record<string, number> };

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { user } = ctx.state;
    const own = { mine: "true", limit: String(PAGE_SIZE) };
    const parsed = InternshipQuerySchema.safeParse({ ...own, offset: ctx.url.searchParams.get("offset") ?? "0" });
    const query = parsed.success ? parsed.data : InternshipQuerySchema.parse(own);
    const { kv } = ctx.state.services;
    const page = await listInternships(kv, { query, viewer: user });
    // Someone who may no longer post reads their listings only: no applicants' counts, no controls.
    const here = canPost(user) ? page.internships.filter((internship) => internship.applyMode === "platform") : [];
    const counts = await Promise.all(here.map((internship) => applicationCount(kv, internship.id)));
    return ctx.render({
      ...page,
      applicants: Object.fromEntries(here.map((internship, i) => [internship.id, counts[i]])),
    });
  },
});

export default define.page<Data>(function MyInternshipsPage({ data, state, url }) {
  const { internships, pagination: { offset, total } } = data;
  const prev = offset > 0 && total > 0 ? Math.max(0, Math.min(offset, total) - PAGE_SIZE) : null;
  const next = offset + PAGE_SIZE < total ? offset + PAGE_SIZE : null;
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-4xl">
      <PageHead title={t("internships.list.mine")} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">
            {t("internships.list.mine")}
          </h1>
          <p class="mt-2 text-slate-700">
            {total === 0 ? t("internships.mine.none") : t("internships.mine.count", { total })}
          </p>
        </div>
        {canPost(state.user) && <PostInternshipLink />}
      </div>
      {!canPost(state.user) && total === 0 && (
        <p class="mt-6 text-slate-700">
          {t.rich("internships.mine.cannotPost", {
            link: (chunks) => <a href="/internships" class="text-indigo-700 underline">{chunks}</a>,
          })}
        </p>
      )}
      {!canPost(state.user) && total > 0 && <p class="mt-6 text-slate-700">{t("internships.mine.noLongerPosting")}</p>}
      {internships.length > 0 && (
        <ul class="mt-6 space-y-4">
          {internships.map((internship) => (
            <li key={internship.id} id={`internship-${internship.id}`} class="space-y-2">
              <InternshipCard internship={internship} showState headingLevel={2}>
                {internship.moderation.status !== "clear" && (
                  <p class="mt-3 text-sm text-slate-800">
                    {internship.moderation.status === "held" ? `${t("internships.mine.held")} ` : ""}
                    {t("internships.mine.why", { reason: moderationReasonText(t, internship.moderation, internship) })}
                  </p>
                )}
              </InternshipCard>
              <ApplicationsChangedNotice
                internship={internship}
                url={url}
                answerDays={TIMEOUT_AFTER_DEADLINE_DAYS}
                many
              />
              {canPost(state.user) && (
                <div class="flex flex-wrap gap-3">
                  <EditInternshipLink id={internship.id} title={internship.title} />
                  <ApplicationsToggle internship={internship} from="mine" offset={offset} />
                  {data.applicants[internship.id] !== undefined && (
                    <a
                      href={`/internships/${internship.id}/applicants`}
                      class="rounded-md border border-indigo-700 bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 hover:bg-indigo-50"
                    >
                      {t.rich("applications.pipeline.open", {
                        count: t.number(data.applicants[internship.id]),
                        title: <span class="sr-only">{` ${internship.title} `}</span>,
                      })}
                    </a>
                  )}
                  <InternshipDeleteButton
                    id={internship.id}
                    title={internship.title}
                    redirectTo="/internships/mine"
                    text={t.island(INTERNSHIP_DELETE_TEXT)}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination
        prev={prev === null ? null : { href: pageHref(prev) }}
        next={next === null ? null : { href: pageHref(next) }}
        position={pagePosition(t, offset, internships.length, total)}
        class="mt-6"
      />
    </section>
  );
});

function pageHref(offset: number): string {
  return offset === 0 ? "/internships/mine" : `/internships/mine?offset=${offset}`;
}
