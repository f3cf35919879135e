/**
 * `/organizations/{slug}`: an organization's page (docs/decisions.md, Trust, "Organizations"): its name, the verified
 * badge and what it means, its website and about text, its track record in words, and its open internships, 20 a page
 * (`?offset=`). Unknown slugs render the 404 page. A signed-in person may verify it with an e-mail at its domain
 * (docs/decisions.md, Trust, "Verification by domain"), and its managers (and admins) edit its website and about text:
 * plain forms that post to this page (`intent` `claim` or `edit`) and answer 303 back here, or the page again with what
 * went wrong (400, 403, 429).
 */
import { define } from "@/lib/platform/define.ts";
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
import { isManager } from "@/lib/organizations/store.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { ForbiddenError, InvalidInputError, RateLimitedError } from "@/lib/errors.ts";
import { formatDate } from "@/lib/dates.ts";
import type { User } from "@/lib/users/users.ts";

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
  problem: FormProblem | null;
};

/** The page's data for `user` (undefined for a guest). */
async function pageData(
  kv: Deno.Kv,
  { slug, offset, user, problem = null }: { slug: string; offset: number; user?: User; problem?: FormProblem | null },
): Promise<Data> {
  const profile = await organizationProfile(kv, { slug, offset, limit: PAGE_SIZE });
  const manages = !!user && (user.role === "admin" || await isManager(kv, profile.organization.id, user.id));
  return { ...profile, offset, manages, problem };
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const asked = Number(ctx.url.searchParams.get("offset") ?? "0");
    const offset = Number.isSafeInteger(asked) && asked > 0 ? asked : 0;
    return servePublicPage(ctx.state, ctx.url, {
      // The open internships, the organization's record and its track record: a change of any renders it again.
      version: async () =>
        (await Promise.all([internshipsVersion(kv), organizationVersion(kv, ctx.params.slug)])).join(":"),
      render: async () => ctx.render(await pageData(kv, { slug: ctx.params.slug, offset, user: ctx.state.user })),
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
        if (!body.success) return await again(400, "Enter your work e-mail address, like name@company.com.");
        const claim = await checkClaim(services.kv, { slug, user, email: body.data.email });
        await services.rateLimits.hit(RATE_LIMITS.organizationClaimsPerPerson, user.id);
        await sendClaim(services, claim);
        return seeOther(`/organizations/${slug}?claim=sent`);
      }
      const patch = ManagerPatchSchema.safeParse({ website: form.website.trim() || null, about: form.about });
      if (!patch.success) return await again(400, "Enter the website as a full address starting with https://.");
      await updateAsManager(services.kv, { slug, user, patch: patch.data });
      return seeOther(`/organizations/${slug}?saved=1`);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return await again(
          429,
          `You can ask for ${RATE_LIMITS.organizationClaimsPerPerson.limit} links a day. Try again tomorrow.`,
        );
      }
      if (error instanceof InvalidInputError) return await again(400, error.message);
      if (error instanceof ForbiddenError) return await again(403, error.message);
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
  const { organization, problem } = data;
  const error = problem?.intent === "claim" ? problem.error : undefined;
  if (!organization.website) {
    return (
      <p class="text-slate-700">
        This organization has no website on its page yet, so nobody can verify it by e-mail. If you work here,{" "}
        <a href="/contact" class="text-indigo-700 underline">write to us</a>{" "}
        with its website; an admin adds it, then you verify with your work e-mail.
      </p>
    );
  }
  if (!user.emailVerified) {
    return (
      <p class="text-slate-700">Verify your own e-mail address first, then come back to verify this organization.</p>
    );
  }
  return (
    <form method="post" class="space-y-3" noValidate>
      <input type="hidden" name="intent" value="claim" />
      <TextField
        id="claim-email"
        name="email"
        label="Your work e-mail"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={problem?.intent === "claim" ? problem.values.email : ""}
        hint={`An address at ${new URL(organization.website).hostname.replace(/^www\./, "")}; we send it a link.`}
        error={error}
      />
      <SubmitButton busy={false} label="Send the link" busyLabel="Sending…" worksWithoutScript />
    </form>
  );
}

/** The managers' form: the website (until verified) and the about text. */
function EditForm({ data }: { data: Data }) {
  const { organization, problem } = data;
  const values = problem?.intent === "edit"
    ? problem.values
    : { website: organization.website ?? "", about: organization.about ?? "" };
  return (
    <form method="post" class="space-y-3" noValidate>
      <input type="hidden" name="intent" value="edit" />
      {problem?.intent === "edit" && <Notice kind="error">{problem.error}</Notice>}
      <TextField
        id="edit-website"
        name="website"
        label="Website"
        type="url"
        maxLength={200}
        value={values.website}
        readOnly={organization.isVerified}
        hint={organization.isVerified ? "Verified: only an admin changes the website now." : "e.g. https://example.com"}
      />
      <TextAreaField id="edit-about" name="about" label="About" rows={4} maxLength={2000} value={values.about} />
      <SubmitButton busy={false} label="Save" busyLabel="Saving…" worksWithoutScript />
    </form>
  );
}

export default define.page<Data>(function OrganizationPage({ data, state, url }) {
  const { organization, stats, internships, offset } = data;
  const sentences = trackRecord(organization.name, stats);
  const href = (at: number) => `/organizations/${organization.slug}${at > 0 ? `?offset=${at}` : ""}`;
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-3xl [overflow-wrap:anywhere]">
      <PageHead
        title={organization.name}
        description={organization.about ??
          `${organization.name}: ${stats.openInternships} open internships for students, and its track record.`}
      />
      <a href="/internships" class="text-sm text-indigo-700 underline hover:text-indigo-900">← All internships</a>
      <header class="mt-4 space-y-2">
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{organization.name}</h1>
        <OrganizationBadge organization={organization} />
        {organization.isVerified
          ? (
            <p class="text-sm text-slate-700">
              {organization.verifiedDomain
                ? `Someone at ${organization.verifiedDomain} proved this organization's e-mail domain`
                : "An admin of this platform checked this organization"}
              {organization.verifiedAt && (
                <>
                  {" on "}
                  <time datetime={organization.verifiedAt}>{formatDate(organization.verifiedAt)}</time>
                </>
              )}.
            </p>
          )
          : (
            <p class="text-sm text-slate-700">
              Not verified yet: nobody has proved they speak for this organization. Check its listings with care.
            </p>
          )}
        {organization.website && (
          <p>
            <a
              href={organization.website}
              target="_blank"
              rel="noopener noreferrer nofollow"
              class="text-indigo-700 underline hover:text-indigo-900"
            >
              {shownWebsite(organization.website)}
              <span class="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        )}
        {organization.about && <p class="whitespace-pre-line text-slate-800">{organization.about}</p>}
      </header>

      {url.searchParams.get("claim") === "sent" && (
        <div class="mt-6">
          <Notice kind="success" title="Check your work inbox">
            We sent a link to the address you gave. Open it within 24 hours to verify {organization.name}.
          </Notice>
        </div>
      )}
      {url.searchParams.get("saved") === "1" && (
        <div class="mt-6">
          <Notice kind="success">Saved.</Notice>
        </div>
      )}

      <section aria-labelledby="record-heading" class="mt-8 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="record-heading" class="text-xl font-semibold text-slate-900">Track record</h2>
        <ul class="mt-3 list-disc space-y-1 pl-5 text-slate-800">
          {sentences.map((sentence) => <li key={sentence}>{sentence}</li>)}
        </ul>
      </section>

      <section aria-labelledby="open-heading" class="mt-8">
        <h2 id="open-heading" class="text-xl font-semibold text-slate-900">
          {stats.openInternships === 1 ? "1 open internship" : `${stats.openInternships} open internships`}
        </h2>
        {internships.length === 0
          ? <p class="mt-3 text-slate-700">No open internships right now.</p>
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
          {data.manages ? `Manage ${organization.name}` : `Do you work at ${organization.name}?`}
        </h2>
        <div class="mt-3">
          {data.manages ? <EditForm data={data} /> : state.user
            ? (
              <>
                <p class="mb-3 text-slate-700">
                  Verify it with your work e-mail: its listings then show the verified badge, and you manage this page.
                </p>
                <ClaimForm data={data} user={state.user} />
              </>
            )
            : (
              <p class="text-slate-700">
                <a
                  href={`/sign-in?callbackURL=${encodeURIComponent(`/organizations/${organization.slug}`)}`}
                  class="text-indigo-700 underline"
                >
                  Sign in
                </a>{" "}
                to verify it with your work e-mail.
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
            label="Report this organization"
            signedIn={Boolean(state.user)}
          />
        </div>
      )}
    </article>
  );
});
