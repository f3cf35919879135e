/**
 * `/organizations/{slug}`: an organization's page (docs/decisions.md, Trust, "Organizations"): its name, the verified
 * badge and what it means, its website and about text, its track record in words, and its open internships, 20 a page
 * (`?offset=`). Unknown slugs render the 404 page.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { OrganizationBadge } from "@/components/organizations/OrganizationBadge.tsx";
import { trackRecord } from "@/lib/browser/organization_format.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { internshipsVersion, type InternshipView } from "@/lib/internships/internships.ts";
import { type OrganizationProfile, organizationProfile } from "@/lib/organizations/organizations.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { formatDate } from "@/lib/dates.ts";

/** Open internships per page. */
const PAGE_SIZE = 20;

type Data = OrganizationProfile & { internships: InternshipView[]; offset: number };

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const asked = Number(ctx.url.searchParams.get("offset") ?? "0");
    const offset = Number.isSafeInteger(asked) && asked > 0 ? asked : 0;
    return servePublicPage(ctx.state, ctx.url, {
      version: () => internshipsVersion(kv),
      render: async () =>
        ctx.render({ ...await organizationProfile(kv, { slug: ctx.params.slug, offset, limit: PAGE_SIZE }), offset }),
    });
  },
});

/** The website's address as shown: host and path, without the scheme. */
function shownWebsite(website: string): string {
  return website.replace(/^https?:\/\//, "").replace(/\/$/, "");
}

export default define.page<Data>(function OrganizationPage({ data, state }) {
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
          position={pagePosition(offset, internships.length, stats.openInternships)}
          prev={offset > 0 ? { href: href(Math.max(0, offset - PAGE_SIZE)) } : null}
          next={offset + PAGE_SIZE < stats.openInternships ? { href: href(offset + PAGE_SIZE) } : null}
        />
      </section>
    </article>
  );
});
