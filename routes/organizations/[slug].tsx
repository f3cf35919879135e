/**
 * `/organizations/{slug}`: an organization's page (docs/decisions.md, Trust, "Organizations"): its name, the verified
 * badge and what it means, its website and about text, its track record in words, and its open internships, 20 a page
 * (`?offset=`; a page past the end is 404, docs/decisions.md, Guest pages, "Pages past the end"). Unknown slugs render
 * the 404 page. A signed-in person may verify it with an e-mail at its domain
 * (docs/decisions.md, Trust, "Verification by domain"), and its managers (and admins) edit its website and about text:
 * plain forms that post to this page (`intent` `claim` or `edit`) and answer 303 back here, or the page again with what
 * went wrong (400, 403, 429). A signed-in person reads instead of the claim form that someone else manages it, when
 * so, and when they reported it while their report is open.
 */
import { define } from "@/lib/platform/define.ts";
import { refusalText } from "@/lib/refusals.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { OrganizationBadge } from "@/components/organizations/OrganizationBadge.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";
import { trackRecord } from "@/lib/browser/organization_format.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { internshipsVersion, type InternshipView } from "@/lib/internships/internships.ts";
import {
  ManagerPatchSchema,
  type OrganizationProfile,
  organizationProfile,
  organizationVersion,
  updateAsManager,
} from "@/lib/organizations/organizations.ts";
import { checkClaim, ClaimSchema, sendClaim } from "@/lib/organizations/claims.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { hasManagerOtherThan, isManager } from "@/lib/organizations/store.ts";
import { openReportOf } from "@/lib/reports/reports.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { ConflictError, ForbiddenError, InvalidInputError, RateLimitedError } from "@/lib/errors.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { User } from "@/lib/users/users.ts";
import { assertWithinList } from "@/lib/http/list_pages.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** Open internships per page. */
const PAGE_SIZE = 20;

/** A form sent back with what went wrong: which one, the values sent, and the message. */
interface FormProblem {
  intent: "claim" | "edit";
  values: Record<string, string>;
  error: string;
}

type Data = OrganizationProfile & {
  internships: InternshipView[];
  offset: number;
  /** Whether the viewer may edit the page (a manager or an admin). */
  manages: boolean;
  /** Whether someone else manages it, so a claim by the signed-in viewer would be refused (false for guests). */
  managedByOthers: boolean;
  /** When the signed-in viewer sent their open report of it (null: none). */
  reportedAt: string | null;
  problem: FormProblem | null;
};

/** The page's data for `user` (undefined for a guest). */
async function pageData(
  kv: Deno.Kv,
  { slug, offset, user, problem = null }: { slug: string; offset: number; user?: User; problem?: FormProblem | null },
): Promise<Data> {
  const profile = await organizationProfile(kv, { slug, offset, limit: PAGE_SIZE });
  const { id } = profile.organization;
  if (!user) return { ...profile, offset, manages: false, managedByOthers: false, reportedAt: null, problem };
  const [manager, managedByOthers, report] = await Promise.all([
    isManager(kv, id, user.id),
    hasManagerOtherThan(kv, id, user.id),
    openReportOf(kv, { userId: user.id, kind: "organization", targetId: id }),
  ]);
  const manages = manager || isAdmin(user);
  return { ...profile, offset, manages, managedByOthers, reportedAt: report?.createdAt ?? null, problem };
}

export const handler = define.handlers<Data>({
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    const asked = Number(ctx.url.searchParams.get("offset") ?? "0");
    const offset = Number.isSafeInteger(asked) && asked > 0 ? asked : 0;
    return servePublicPage(req, ctx.state, ctx.url, {
      // The open internships, the organization's record and its track record: a change of any renders it again.
      version: async () =>
        (await Promise.all([internshipsVersion(kv), organizationVersion(kv, ctx.params.slug)])).join(":"),
      render: async () => {
        const data = await pageData(kv, { slug: ctx.params.slug, offset, user: ctx.state.user });
        assertWithinList(offset, data.stats.openInternships);
        return ctx.render(data);
      },
    });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services, user } = ctx.state;
    const { slug } = ctx.params;
    const form = await readFormFields(req, ["intent", "email", "website", "about"]);
    const intent = form.intent === "edit" ? "edit" : "claim";
    const again = async (status: number, error: string) =>
      ctx.render(
        await pageData(services.kv, { slug, offset: 0, user, problem: { intent, values: form, error } }),
        { status },
      );
    try {
      if (intent === "claim") {
        const body = ClaimSchema.safeParse({ email: form.email.trim() });
        if (!body.success) return await again(400, ctx.state.t("trust.org.errorEmail"));
        const claim = await checkClaim(services.kv, { slug, user, email: body.data.email });
        await services.rateLimits.hit(RATE_LIMITS.organizationClaimsPerPerson, user.id);
        await sendClaim(services, claim);
        return seeOther(`/organizations/${slug}?claim=sent`);
      }
      const patch = ManagerPatchSchema.safeParse({ website: form.website.trim() || null, about: form.about });
      if (!patch.success) return await again(400, ctx.state.t("trust.org.errorWebsite"));
      await updateAsManager(services.kv, { slug, user, patch: patch.data });
      return seeOther(`/organizations/${slug}?saved=1`);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return await again(
          429,
          ctx.state.t("trust.org.errorLimit", { limit: RATE_LIMITS.organizationClaimsPerPerson.limit }),
        );
      }
      if (error instanceof InvalidInputError) return await again(400, refusalText(ctx.state.t, error));
      if (error instanceof ForbiddenError) return await again(403, refusalText(ctx.state.t, error));
      if (error instanceof ConflictError) return await again(409, refusalText(ctx.state.t, error));
      throw error;
    }
  },
});

/** The website's address as shown: host and path, without the scheme. */
function shownWebsite(website: string): string {
  return website.replace(/^https?:\/\//, "").replace(/\/$/, "");
}

/** The verify form: a signed-in person's work e-mail, for an organization with a website. */
function ClaimForm({ data, user }: { data: Data; user: User }) {
  const t = useT();
  const { organization, problem } = data;
  const error = problem?.intent === "claim" ? problem.error : undefined;
  if (!organization.website) {
    return (
      <p class="text-slate-700">
        {t.rich("trust.org.noWebsite", {
          link: (chunks) => <a href="/contact" class="text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
    );
  }
  if (organization.verificationRemovedAt) {
    return <p class="text-slate-700">{t("common.refusal.verificationRemoved")}</p>;
  }
  if (!user.emailVerified) return <p class="text-slate-700">{t("trust.org.verifyOwnFirst")}</p>;
  return (
    <form method="post" class="space-y-3" noValidate>
      <input type="hidden" name="intent" value="claim" />
      <TextField
        id="claim-email"
        name="email"
        label={t("trust.org.workEmail")}
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={problem?.intent === "claim" ? problem.values.email : ""}
        hint={t("trust.org.workEmailHint", { domain: new URL(organization.website).hostname.replace(/^www\./, "") })}
        error={error}
      />
      <SubmitButton
        busy={false}
        label={t("trust.org.sendLink")}
        busyLabel={t("trust.org.sending")}
        worksWithoutScript
      />
    </form>
  );
}

/**
 * The managers' form: the website (until verified, or un-verified by an admin) and the about text. Leaving with a change
 * not sent asks first (`data-keep-typed`), also when it came back refused (`data-unsaved`: what was sent is its default
 * then; docs/decisions.md, Islands, "Leaving a typed form").
 */
function EditForm({ data }: { data: Data }) {
  const t = useT();
  const { organization, problem } = data;
  const saved = { website: organization.website ?? "", about: organization.about ?? "" };
  const values = problem?.intent === "edit" ? problem.values : saved;
  const sentBack = values.website !== saved.website || values.about !== saved.about;
  return (
    <form method="post" class="space-y-3" noValidate data-keep-typed data-unsaved={sentBack || undefined}>
      <input type="hidden" name="intent" value="edit" />
      {problem?.intent === "edit" && <Notice kind="error">{problem.error}</Notice>}
      <TextField
        id="edit-website"
        name="website"
        label={t("trust.org.website")}
        type="url"
        maxLength={200}
        value={values.website}
        readOnly={organization.isVerified || !!organization.verificationRemovedAt}
        hint={t(
          organization.isVerified
            ? "trust.org.websiteLocked"
            : organization.verificationRemovedAt
            ? "common.refusal.verificationRemoved"
            : "trust.org.websiteHint",
        )}
      />
      <TextAreaField
        id="edit-about"
        name="about"
        label={t("trust.org.about")}
        rows={4}
        maxLength={2000}
        value={values.about}
      />
      <SubmitButton busy={false} label={t("trust.org.save")} busyLabel={t("trust.org.saving")} worksWithoutScript />
    </form>
  );
}

export default define.page<Data>(function OrganizationPage({ data, state, url }) {
  const { organization, stats, internships, offset } = data;
  const t = useT();
  const sentences = trackRecord(t, organization.name, stats);
  const name = organization.name;
  const date = (iso: string) => <time datetime={iso}>{t.date(iso)}</time>;
  const href = (at: number) => `/organizations/${organization.slug}${at > 0 ? `?offset=${at}` : ""}`;
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-3xl [overflow-wrap:anywhere]">
      <PageHead
        title={organization.name}
        description={organization.about ?? t("trust.org.description", { name, count: stats.openInternships })}
      />
      <a href="/internships" class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("internships.detail.all")}
      </a>
      <header class="mt-4 space-y-2">
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{organization.name}</h1>
        <OrganizationBadge organization={organization} />
        {organization.isVerified
          ? (
            <p class="text-sm text-slate-700">
              {organization.verifiedDomain
                ? organization.verifiedAt
                  ? t.rich("trust.org.domainProvedOn", {
                    domain: organization.verifiedDomain,
                    date: date(organization.verifiedAt),
                  })
                  : t("trust.org.domainProved", { domain: organization.verifiedDomain })
                : organization.verifiedAt
                ? t.rich("trust.org.adminCheckedOn", { date: date(organization.verifiedAt) })
                : t("trust.org.adminChecked")}
            </p>
          )
          : <p class="text-sm text-slate-700">{t("trust.org.notVerified")}</p>}
        {organization.website && (
          <p>
            <a
              href={organization.website}
              target="_blank"
              rel="noopener noreferrer nofollow"
              class="text-indigo-700 underline hover:text-indigo-900"
            >
              {shownWebsite(organization.website)} <span class="sr-only">{t("common.newTab")}</span>
            </a>
          </p>
        )}
        {organization.about && <p class="whitespace-pre-line text-slate-800">{organization.about}</p>}
      </header>

      {url.searchParams.get("claim") === "sent" && (
        <div class="mt-6">
          <Notice kind="success" title={t("trust.org.claimSentTitle")}>{t("trust.org.claimSent", { name })}</Notice>
        </div>
      )}
      {url.searchParams.get("saved") === "1" && (
        <div class="mt-6">
          <Notice kind="success">{t("trust.org.saved")}</Notice>
        </div>
      )}

      <section aria-labelledby="record-heading" class="mt-8 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="record-heading" class="text-xl font-semibold text-slate-900">{t("trust.org.record")}</h2>
        <ul class="mt-3 list-disc space-y-1 pl-5 text-slate-800">
          {sentences.map((sentence) => <li key={sentence}>{sentence}</li>)}
        </ul>
      </section>

      <section aria-labelledby="open-heading" class="mt-8">
        <h2 id="open-heading" class="text-xl font-semibold text-slate-900">
          {t("trust.org.open", { count: stats.openInternships })}
        </h2>
        {internships.length === 0
          ? <p class="mt-3 text-slate-700">{t("trust.org.noneOpen")}</p>
          : (
            <ul class="mt-4 space-y-4">
              {internships.map((internship) => (
                <li key={internship.id}>
                  <InternshipCard internship={internship} signedIn={Boolean(state.user)} />
                </li>
              ))}
            </ul>
          )}
        <Pagination
          class="mt-6"
          position={pagePosition(null, offset, internships.length, stats.openInternships)}
          prev={offset > 0 ? { href: href(Math.max(0, offset - PAGE_SIZE)) } : null}
          next={offset + PAGE_SIZE < stats.openInternships ? { href: href(offset + PAGE_SIZE) } : null}
        />
      </section>

      <section aria-labelledby="work-heading" class="mt-8 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="work-heading" class="text-xl font-semibold text-slate-900">
          {t(data.manages ? "trust.org.manage" : "trust.org.workHere", { name })}
        </h2>
        <div class="mt-3">
          {data.manages
            ? <EditForm data={data} />
            : state.user && data.managedByOthers
            ? <p class="text-slate-700">{t("common.refusal.organizationHasManager")}</p>
            : state.user
            ? (
              <>
                <p class="mb-3 text-slate-700">{t("trust.org.verifyWith")}</p>
                <ClaimForm data={data} user={state.user} />
              </>
            )
            : (
              <p class="text-slate-700">
                {t.rich("trust.org.signInToVerify", {
                  link: (chunks) => (
                    <a
                      href={`/sign-in?callbackURL=${encodeURIComponent(`/organizations/${organization.slug}`)}`}
                      class="text-indigo-700 underline"
                    >
                      {chunks}
                    </a>
                  ),
                })}
              </p>
            )}
        </div>
      </section>
      {!data.manages && (
        <div class="mt-6">
          <ReportControl
            kind="organization"
            id={organization.id}
            back={`/organizations/${organization.slug}`}
            label={t("trust.org.report")}
            signedIn={Boolean(state.user)}
            reportedAt={data.reportedAt}
          />
        </div>
      )}
    </article>
  );
});
