/**
 * `/internships/{id}`: one internship with every field, its owner and the apply link (opened
 * in a new tab without referrer or opener, and `nofollow` since anyone may post links; none once it is closed); a
 * listing that takes applications here has "Apply" (`/internships/{id}/apply`) and lists its screening questions
 * (docs/decisions.md, Applications, "Apply mode").
 * Unknown, deleted and (for anyone but admins and the owner) inactive or held ids render the 404 page; one an admin
 * rejected (in review, or hidden after reports) answers 410 with a page saying an admin removed it (docs/decisions.md,
 * Trust). The owner and admins read why a withheld one is held, and after posting (`?posted=1`) or saving
 * (`?saved=1`) that it was, with the page's address to share (or, while held or closed, that students cannot see it
 * yet). The owner and admins get edit, "Close applications" or "Reopen applications" (`/internships/{id}/applications`)
 * and delete; admins also the verified/active switches. Its
 * poster (owner or verified manager) has "Edit" and "Applicants" in the apply box in place of "Apply".
 */
import { define } from "@/lib/platform/define.ts";
import type { ComponentChildren } from "preact";
import { Deadline, InternshipBadges, OrganizationLink, TagList } from "@/components/internships/InternshipCard.tsx";
import { RoleBadge } from "@/components/RoleBadge.tsx";
import { UnverifiedBadge, VerifiedBadge } from "@/components/organizations/OrganizationBadge.tsx";
import { isVerifiedListing, verifiedBy } from "@/lib/browser/organization_format.ts";
import { ApplicationsChangedNotice, ApplicationsToggle, EditInternshipLink } from "@/components/internships/links.tsx";
import { TIMING_KEYS, TYPE_KEYS } from "@/lib/browser/internship_format.ts";
import { stipendText } from "@/lib/internships/stipend.ts";
import { Notice } from "@/components/forms.tsx";
import { ModerationNotice } from "@/components/moderation/ModerationNotice.tsx";
import { RemovedListing } from "@/components/moderation/RemovedListing.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipAdminControls, { INTERNSHIP_ADMIN_TEXT } from "@/islands/InternshipAdminControls.tsx";
import InternshipDeleteButton, { INTERNSHIP_DELETE_TEXT } from "@/islands/InternshipDeleteButton.tsx";
import { SaveListing } from "@/components/SaveListing.tsx";
import {
  getInternship,
  internshipRecord,
  internshipsVersion,
  type InternshipView,
} from "@/lib/internships/internships.ts";
import { NotFoundError } from "@/lib/errors.ts";
import type { User } from "@/lib/users/users.ts";
import { canManage, canModerate } from "@/lib/internships/policy.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { jobPosting } from "@/lib/seo/json_ld.ts";
import { istToday } from "@/lib/dates.ts";
import { applicationTo, isPosterOfInternship, TIMEOUT_AFTER_DEADLINE_DAYS } from "@/lib/applications/applications.ts";
import { openReportOf } from "@/lib/reports/reports.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/**
 * The internship, today's IST date (which decides whether it is open, and so has a `JobPosting`), and for a signed-in
 * person when they applied here (null: not applied) and when they withdrew that application (null: not withdrawn),
 * whether they are its poster (docs/decisions.md, Applications),
 * and when they reported it if their report is open (null: none; docs/decisions.md, Trust, "Reports").
 */
interface InternshipPageData {
  internship: InternshipView;
  today: string;
  appliedAt: string | null;
  withdrawnAt: string | null;
  poster: boolean;
  reportedAt: string | null;
}

/** The page of a listing an admin removed (410). */
interface RemovedPageData {
  removed: true;
}

/**
 * The internship `id` as `viewer` may read it, or `removed` when it is hidden from them because an admin rejected it.
 * @throws NotFoundError when unknown, deleted, or hidden from `viewer` for another reason.
 */
async function readableInternship(
  kv: Deno.Kv,
  id: string,
  viewer: User | undefined,
): Promise<InternshipView | "removed"> {
  try {
    return await getInternship(kv, { id, viewer, audience: "owner" });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const stored = await internshipRecord(kv, id);
    if (stored && !stored.record.deletedAt && stored.record.moderation?.status === "rejected") return "removed";
    throw error;
  }
}

export const handler = define.handlers<InternshipPageData | RemovedPageData>({
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    const today = istToday();
    return servePublicPage(req, ctx.state, ctx.url, {
      version: () => internshipsVersion(kv, today),
      render: async () => {
        const user = ctx.state.user;
        const internship = await readableInternship(kv, ctx.params.id, user);
        if (internship === "removed") return ctx.render({ removed: true }, { status: 410 });
        const [application, poster, report] = user
          ? await Promise.all([
            applicationTo(kv, { userId: user.id, internshipId: internship.id }),
            internship.applyMode === "platform" || canManage(user, internship)
              ? isPosterOfInternship(kv, user, internship.id)
              : false,
            openReportOf(kv, { userId: user.id, kind: "internship", targetId: internship.id }),
          ])
          : [null, false, null];
        const reportedAt = report?.createdAt ?? null;
        const withdrawnAt = application?.status === "withdrawn" ? application.history.at(-1)?.at ?? null : null;
        const appliedAt = application?.createdAt ?? null;
        return ctx.render({ internship, today, appliedAt, withdrawnAt, poster, reportedAt });
      },
    });
  },
});

/** The primary button of the apply box. */
const APPLY_BUTTON =
  "rounded-md bg-indigo-700 px-5 py-2.5 font-medium text-white hover:bg-indigo-800 focus:outline-none " +
  "focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2";

function hostOf(link: string): string {
  try {
    return new URL(link).hostname;
  } catch {
    return link;
  }
}

/** The description a search result or a link preview shows: the listing's own, or its main facts. */
function shareDescription(t: Translate, internship: InternshipView): string {
  const facts = [internship.hiringOrganization, stipendText(t, internship.stipend), internship.location].filter(
    Boolean,
  );
  return internship.description ?? `${internship.title}: ${facts.join(" · ")}`;
}

export default define.page<InternshipPageData | RemovedPageData>(function InternshipPage({ data, state, url }) {
  if ("removed" in data) return <RemovedListing kind="internships" />;
  const { internship, today, appliedAt, withdrawnAt, poster, reportedAt } = data;
  const t = useT();
  const manage = canManage(state.user, internship);
  const isAdmin = canModerate(state.user);
  // Students read the page only while it is open and no review holds it; the notices below say why not.
  const listed = internship.isActive && internship.moderation.status === "clear";
  // Its owner, or a manager of its verified organization: the apply box offers "Edit" in place of "Apply", which the
  // API would refuse them (an admin who is neither may still apply).
  const own = poster && (state.user?.id === internship.userId || !isAdmin);
  const notGiven = t("internships.detail.notGiven");
  const facts: [MessageKey, string][] = [
    ["internships.detail.stipend", stipendText(t, internship.stipend)],
    ["internships.detail.location", internship.location ?? notGiven],
    ["internships.detail.type", internship.type ? t(TYPE_KEYS[internship.type]) : notGiven],
    ["internships.detail.timing", internship.timing ? t(TIMING_KEYS[internship.timing]) : notGiven],
    ["internships.detail.duration", internship.duration ?? notGiven],
    ["internships.detail.experience", internship.experience ?? notGiven],
    ["internships.detail.manager", internship.hiringManager ?? notGiven],
  ];
  const newTab = <span class="sr-only">{t("common.newTab")}</span>;
  const sr = (chunks: ComponentChildren[]) => <span class="sr-only">{chunks}</span>;
  const time = (iso: string) => <time datetime={iso}>{t.date(iso)}</time>;
  // The poster's role is a styled label drawn from their record, as the comments' admin badge, so that no name typed
  // by anyone ("Asha (admin)") reads the same (docs/decisions.md, Comments and reactions,
  // "An admin's comment is marked").
  const role = internship.user && internship.user.role !== "user"
    ? (
      <>
        {" "}
        <RoleBadge role={internship.user.role} label={t.dynamic(`common.role.${internship.user.role}`)} />
      </>
    )
    : "";
  return (
    <article aria-labelledby="page-title" class="[overflow-wrap:anywhere] mx-auto max-w-3xl">
      <PageHead
        title={internship.title}
        description={shareDescription(t, internship)}
        jsonLd={jobPosting(internship, state.services.config.appUrl, today)}
      />
      <a href="/internships" class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("internships.detail.all")}
      </a>
      <header class="mt-4">
        <div class="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{internship.title}</h1>
            <p class="mt-1 text-lg text-slate-700">
              <OrganizationLink internship={internship} />
            </p>
          </div>
          <div class="flex flex-wrap items-center gap-3">
            {isVerifiedListing(internship) && (
              <VerifiedBadge
                word={t(verifiedBy(internship) === "organization" ? "trust.verified.word" : "trust.checked.word")}
                label={t.dynamic(`trust.verified.${verifiedBy(internship)}`)}
                by={verifiedBy(internship)}
              />
            )}
            {!internship.organization?.isVerified && <UnverifiedBadge word={t("trust.verified.notOrganization")} />}
            {!internship.deletedAt && internship.isActive && internship.moderation.status === "clear" && (
              <SaveListing
                kind="internships"
                id={internship.id}
                title={internship.title}
                signedIn={Boolean(state.user)}
              />
            )}
          </div>
        </div>
        <div class="mt-3">
          <InternshipBadges internship={internship} showState={manage} />
        </div>
      </header>

      {manage && (url.searchParams.get("posted") === "1" || url.searchParams.get("saved") === "1") && (
        <div class="mt-4">
          <Notice
            kind="success"
            title={t(
              url.searchParams.has("posted") ? "internships.detail.postedTitle" : "internships.detail.savedTitle",
            )}
          >
            {t.rich(listed ? "internships.detail.publicPage" : "internships.detail.notListedYet", {
              url: (
                <a href={`/internships/${internship.id}`} class="font-medium underline [overflow-wrap:anywhere]">
                  {`${state.services.config.appUrl}/internships/${internship.id}`}
                </a>
              ),
            })}
            {url.searchParams.has("posted") && internship.organization && !internship.organization.isVerified && (
              <p class="mt-2">
                {t.rich("internships.detail.postedUnverified", {
                  name: internship.organization.name,
                  chip: t("trust.verified.notOrganization"),
                  checked: t("trust.checked.word"),
                  link: (chunks) => (
                    <a
                      href={`/organizations/${internship.organization!.slug}#work-heading`}
                      class="font-medium underline"
                    >
                      {chunks}
                    </a>
                  ),
                })}
              </p>
            )}
          </Notice>
        </div>
      )}
      {manage && (
        <div class="mt-4 empty:hidden">
          <ApplicationsChangedNotice internship={internship} url={url} answerDays={TIMEOUT_AFTER_DEADLINE_DAYS} />
        </div>
      )}
      {appliedAt && url.searchParams.get("applied") === "1" && (
        <div class="mt-4">
          <Notice kind="success" title={t("internships.detail.appliedTitle")}>
            {t("internships.detail.appliedBody")}
          </Notice>
        </div>
      )}

      {manage && internship.moderation.status !== "clear" && (
        <div class="mt-4">
          <ModerationNotice moderation={internship.moderation} listing={internship} noun="internship" />
        </div>
      )}

      {!internship.isActive && (
        <div class="mt-4">
          <Notice kind="info" title={t("internships.detail.inactiveTitle")}>
            {t("internships.detail.inactiveBody")}
          </Notice>
        </div>
      )}

      <div class="mt-6 flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        {withdrawnAt
          ? (
            <p class="font-medium text-slate-800">
              {t("applications.apply.withdrawnMessage", { date: t.date(withdrawnAt) })}
            </p>
          )
          : appliedAt
          ? (
            <p class="font-medium text-green-800">
              {t.rich("internships.detail.appliedOn", { date: time(appliedAt) })}{" "}
              <a href="/me/tracker" class="text-indigo-700 underline">{t("internships.detail.follow")}</a>
            </p>
          )
          : internship.closedAt
          ? (
            <p class="font-medium text-red-800">
              {t("internships.detail.closedOn", { date: t.date(internship.closedAt) })}
            </p>
          )
          : internship.isClosed
          ? <p class="font-medium text-red-800">{t("internships.detail.closed")}</p>
          : own
          ? <EditInternshipLink id={internship.id} title={internship.title} />
          : internship.applyMode === "platform"
          ? (
            <a href={`/internships/${internship.id}/apply`} class={APPLY_BUTTON}>
              {t.rich("internships.detail.apply", { title: internship.title, sr })}
            </a>
          )
          : internship.link && (
            <a href={internship.link} target="_blank" rel="noopener noreferrer nofollow" class={APPLY_BUTTON}>
              {t("internships.detail.applyOn", { host: hostOf(internship.link) })} {newTab}
            </a>
          )}
        {!(internship.closedAt && !withdrawnAt && !appliedAt) && (
          // Closed by its poster, the line above already says so with the day.
          <p class="text-slate-700">
            <Deadline deadline={internship.deadline} closedAt={internship.closedAt} />
          </p>
        )}
        {poster && (
          <a
            href={`/internships/${internship.id}/applicants`}
            class="rounded-md border border-indigo-700 px-4 py-2 font-medium text-indigo-800 hover:bg-indigo-50"
          >
            {t("internships.detail.applicants")}
          </a>
        )}
        {internship.applyMode === "platform" && !internship.link && (
          <p class="w-full text-sm text-slate-700">{t("internships.detail.applyHereOnly")}</p>
        )}
        {internship.applyMode === "platform" && internship.link && (
          <p class="w-full text-sm text-slate-700">
            {t("internships.detail.applyHere")}{" "}
            <a
              href={internship.link}
              target="_blank"
              rel="noopener noreferrer nofollow"
              class="font-medium text-indigo-700 underline [overflow-wrap:anywhere]"
            >
              {hostOf(internship.link)} {newTab}
            </a>
          </p>
        )}
      </div>

      <section aria-labelledby="details-heading" class="mt-8">
        <h2 id="details-heading" class="text-xl font-semibold text-slate-900">{t("internships.detail.details")}</h2>
        <dl class="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-2">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt class="text-sm font-medium text-slate-700">{t(term)}</dt>
              <dd class="text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <div class="mt-4">
          <TagList tags={internship.tags} />
        </div>
      </section>

      {internship.questions.length > 0 && (
        <section aria-labelledby="questions-heading" class="mt-8">
          <h2 id="questions-heading" class="text-xl font-semibold text-slate-900">
            {t("internships.detail.questions")}
          </h2>
          <ol class="mt-3 list-decimal space-y-1 pl-6 text-slate-800">
            {internship.questions.map((question) => (
              <li key={question.id}>
                {question.text}{" "}
                {!question.required && <span class="text-sm text-slate-700">{t("common.optional")}</span>}
              </li>
            ))}
          </ol>
        </section>
      )}

      <section aria-labelledby="description-heading" class="mt-8">
        <h2 id="description-heading" class="text-xl font-semibold text-slate-900">{t("internships.detail.about")}</h2>
        <p class="mt-3 whitespace-pre-line text-slate-800">
          {internship.description ?? t("internships.detail.noDescription")}
        </p>
      </section>

      {!manage && (
        <div class="mt-8">
          <p class="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {t("trust.neverPay.student")}
          </p>
          <ReportControl
            kind="internship"
            id={internship.id}
            back={`/internships/${internship.id}`}
            label={t("internships.detail.report")}
            signedIn={Boolean(state.user)}
            reportedAt={reportedAt}
          />
        </div>
      )}

      <footer class="mt-8 flex flex-wrap gap-x-4 gap-y-1 border-t border-slate-200 pt-4 text-sm text-slate-700">
        <p>
          {internship.viaApiKey
            ? t.rich("internships.detail.imported", { date: time(internship.createdAt) })
            : t.rich("internships.detail.posted", {
              name: <span class="font-medium text-slate-900">{internship.user?.name ?? t("common.formerMember")}</span>,
              role,
              date: time(internship.createdAt),
            })}
        </p>
        {internship.revisedAt && (
          <p>
            {t.rich("internships.detail.updated", { date: time(internship.revisedAt) })}
          </p>
        )}
      </footer>

      {manage && (
        <section aria-labelledby="manage-heading" class="mt-8 space-y-4">
          <h2 id="manage-heading" class="text-xl font-semibold text-slate-900">{t("internships.detail.manage")}</h2>
          <div class="flex flex-wrap items-center gap-3">
            <EditInternshipLink id={internship.id} title={internship.title} />
            <ApplicationsToggle internship={internship} />
            <InternshipDeleteButton
              id={internship.id}
              title={internship.title}
              redirectTo={isAdmin && state.user?.id !== internship.userId ? "/internships" : "/internships/mine"}
              text={t.island(INTERNSHIP_DELETE_TEXT)}
            />
          </div>
          {isAdmin && (
            <InternshipAdminControls
              text={t.island(INTERNSHIP_ADMIN_TEXT)}
              id={internship.id}
              title={internship.title}
              isVerified={internship.isVerified}
              isActive={internship.isActive}
              back={`/internships/${internship.id}`}
              saved={url.searchParams.get("moderated") === internship.id}
            />
          )}
        </section>
      )}
    </article>
  );
});
