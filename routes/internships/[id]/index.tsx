/**
 * `/internships/{id}`: one internship with every field, its owner and the apply link (opened
 * in a new tab without referrer or opener, and `nofollow` since anyone may post links; none once it is closed); a
 * listing that takes applications here has "Apply" (`/internships/{id}/apply`) and lists its screening questions
 * (docs/decisions.md, Applications, "Apply mode").
 * Unknown, deleted and (for anyone but admins and the owner) inactive or withheld ids render the 404
 * page; the owner and admins read why a withheld one is held. The owner and admins get edit and delete; admins also
 * the verified/active switches.
 */
import { define } from "@/lib/platform/define.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import { Deadline, InternshipBadges, OrganizationLink, TagList } from "@/components/internships/InternshipCard.tsx";
import { VerifiedBadge } from "@/components/organizations/OrganizationBadge.tsx";
import { isVerifiedListing, verifiedLabel } from "@/lib/browser/organization_format.ts";
import { EditInternshipLink } from "@/components/internships/links.tsx";
import { formatDate, TIMING_LABELS, TYPE_LABELS } from "@/lib/browser/internship_format.ts";
import { formatStipend } from "@/lib/internships/stipend.ts";
import { Notice } from "@/components/forms.tsx";
import { ModerationNotice } from "@/components/moderation/ModerationNotice.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipAdminControls, { INTERNSHIP_ADMIN_TEXT } from "@/islands/InternshipAdminControls.tsx";
import InternshipDeleteButton from "@/islands/InternshipDeleteButton.tsx";
import SaveButton from "@/islands/SaveButton.tsx";
import { getInternship, internshipsVersion, type InternshipView } from "@/lib/internships/internships.ts";
import { canManage, canModerate } from "@/lib/internships/policy.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { jobPosting } from "@/lib/seo/json_ld.ts";
import { istToday } from "@/lib/dates.ts";
import { applicationTo, isPosterOfInternship } from "@/lib/applications/applications.ts";
import { useT } from "@/lib/i18n/context.ts";

/**
 * The internship, today's IST date (which decides whether it is open, and so has a `JobPosting`), and for a signed-in
 * person when they applied here (null: not applied) and whether they are its poster (docs/decisions.md, Applications).
 */
interface InternshipPageData {
  internship: InternshipView;
  today: string;
  appliedAt: string | null;
  poster: boolean;
}

export const handler = define.handlers<InternshipPageData>({
  GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const today = istToday();
    return servePublicPage(ctx.state, ctx.url, {
      version: () => internshipsVersion(kv, today),
      render: async () => {
        const user = ctx.state.user;
        const internship = await getInternship(kv, { id: ctx.params.id, viewer: user, audience: "owner" });
        const [application, poster] = user
          ? await Promise.all([
            applicationTo(kv, { userId: user.id, internshipId: internship.id }),
            internship.applyMode === "platform" || canManage(user, internship)
              ? isPosterOfInternship(kv, user, internship.id)
              : false,
          ])
          : [null, false];
        return ctx.render({ internship, today, appliedAt: application?.createdAt ?? null, poster });
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
function shareDescription(internship: InternshipView): string {
  const facts = [internship.hiringOrganization, formatStipend(internship.stipend), internship.location].filter(Boolean);
  return internship.description ?? `${internship.title}: ${facts.join(" · ")}`;
}

export default define.page<InternshipPageData>(function InternshipPage(
  { data: { internship, today, appliedAt, poster }, state, url },
) {
  const t = useT();
  const manage = canManage(state.user, internship);
  const isAdmin = canModerate(state.user);
  const facts: [string, string][] = [
    ["Stipend", formatStipend(internship.stipend)],
    ["Location", internship.location ?? "Not given"],
    ["Work type", internship.type ? TYPE_LABELS[internship.type] : "Not given"],
    ["Timing", internship.timing ? TIMING_LABELS[internship.timing] : "Not given"],
    ["Duration", internship.duration ?? "Not given"],
    ["Experience", internship.experience ?? "Not given"],
    ["Hiring manager", internship.hiringManager ?? "Not given"],
  ];
  return (
    <article aria-labelledby="page-title" class="[overflow-wrap:anywhere] mx-auto max-w-3xl">
      <PageHead
        title={internship.title}
        description={shareDescription(internship)}
        jsonLd={jobPosting(internship, state.services.config.appUrl, today)}
      />
      <a href="/internships" class="text-sm text-indigo-700 underline hover:text-indigo-900">← All internships</a>
      <header class="mt-4">
        <div class="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{internship.title}</h1>
            <p class="mt-1 text-lg text-slate-700">
              <OrganizationLink internship={internship} />
            </p>
          </div>
          <div class="flex flex-wrap items-center gap-3">
            {isVerifiedListing(internship) && <VerifiedBadge label={verifiedLabel(internship)} />}
            {!internship.deletedAt && internship.isActive && internship.moderation.status === "clear" && (
              <SaveButton
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

      {appliedAt && url.searchParams.get("applied") === "1" && (
        <div class="mt-4">
          <Notice kind="success" title="Your application is sent">
            The organization sees it now. You will hear back here and by e-mail.
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
          <Notice kind="info" title="This listing is inactive">
            An admin has deactivated it, so it is hidden from the public listings.
          </Notice>
        </div>
      )}

      <div class="mt-6 flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        {appliedAt
          ? (
            <p class="font-medium text-green-800">
              ✓ Applied on <time datetime={appliedAt}>{formatDate(appliedAt)}</time>.{" "}
              <a href="/me/tracker" class="text-indigo-700 underline">Follow it in your tracker</a>
            </p>
          )
          : internship.isClosed
          ? <p class="font-medium text-red-800">Applications are closed.</p>
          : internship.applyMode === "platform"
          ? (
            <a href={`/internships/${internship.id}/apply`} class={APPLY_BUTTON}>
              Apply<span class="sr-only">{` to ${internship.title}`}</span>
            </a>
          )
          : (
            <a href={internship.link} target="_blank" rel="noopener noreferrer nofollow" class={APPLY_BUTTON}>
              Apply on {hostOf(internship.link)}
              <span class="sr-only">(opens in a new tab)</span>
            </a>
          )}
        <p class="text-slate-700">
          <Deadline deadline={internship.deadline} />
        </p>
        {poster && (
          <a
            href={`/internships/${internship.id}/applicants`}
            class="rounded-md border border-indigo-700 px-4 py-2 font-medium text-indigo-800 hover:bg-indigo-50"
          >
            Applicants
          </a>
        )}
        {internship.applyMode === "platform" && (
          <p class="w-full text-sm text-slate-700">
            Apply here with your resume; the organization answers every applicant, or we tell you after 15 days past the
            deadline. The role on the organization's own site:{" "}
            <a
              href={internship.link}
              target="_blank"
              rel="noopener noreferrer nofollow"
              class="font-medium text-indigo-700 underline [overflow-wrap:anywhere]"
            >
              {hostOf(internship.link)}
              <span class="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        )}
      </div>

      <section aria-labelledby="details-heading" class="mt-8">
        <h2 id="details-heading" class="text-xl font-semibold text-slate-900">Details</h2>
        <dl class="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-2">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt class="text-sm font-medium text-slate-700">{term}</dt>
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
          <h2 id="questions-heading" class="text-xl font-semibold text-slate-900">Questions when you apply</h2>
          <ol class="mt-3 list-decimal space-y-1 pl-6 text-slate-800">
            {internship.questions.map((question) => (
              <li key={question.id}>
                {question.text} {!question.required && <span class="text-sm text-slate-700">(optional)</span>}
              </li>
            ))}
          </ol>
        </section>
      )}

      <section aria-labelledby="description-heading" class="mt-8">
        <h2 id="description-heading" class="text-xl font-semibold text-slate-900">About the internship</h2>
        <p class="mt-3 whitespace-pre-line text-slate-800">
          {internship.description ?? "The organization has not added a description."}
        </p>
      </section>

      {!manage && (
        <div class="mt-8">
          <ReportControl
            kind="internship"
            id={internship.id}
            back={`/internships/${internship.id}`}
            label="Report this internship"
            signedIn={Boolean(state.user)}
          />
        </div>
      )}

      <footer class="mt-8 border-t border-slate-200 pt-4 text-sm text-slate-700">
        Posted by <span class="font-medium text-slate-900">{internship.user?.name ?? FORMER_MEMBER}</span>
        {internship.user && internship.user.role !== "user" && ` (${internship.user.role})`} on{" "}
        <time datetime={internship.createdAt}>{formatDate(internship.createdAt)}</time>
        {internship.updatedAt !== internship.createdAt && (
          <>
            , updated <time datetime={internship.updatedAt}>{formatDate(internship.updatedAt)}</time>
          </>
        )}
      </footer>

      {manage && (
        <section aria-labelledby="manage-heading" class="mt-8 space-y-4">
          <h2 id="manage-heading" class="text-xl font-semibold text-slate-900">Manage</h2>
          <div class="flex flex-wrap items-center gap-3">
            <EditInternshipLink id={internship.id} title={internship.title} />
            <InternshipDeleteButton
              id={internship.id}
              title={internship.title}
              redirectTo={isAdmin && state.user?.id !== internship.userId ? "/internships" : "/internships/mine"}
            />
          </div>
          {isAdmin && (
            <InternshipAdminControls
              text={t.island(INTERNSHIP_ADMIN_TEXT)}
              id={internship.id}
              title={internship.title}
              isVerified={internship.isVerified}
              isActive={internship.isActive}
            />
          )}
        </section>
      )}
    </article>
  );
});
