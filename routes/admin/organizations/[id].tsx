/**
 * `/admin/organizations/{id}` (admins only): edit an organization (docs/decisions.md, Trust, "Organizations"): its
 * name (the slug stays), website, about text and verified state, and see its managers. A plain form posting to this
 * page: 303 back with `?saved=1`, or the page again with what went wrong (400, 409). Unknown ids render the 404 page.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { ConflictError, NotFoundError } from "@/lib/errors.ts";
import { formatDate } from "@/lib/dates.ts";
import { AdminPatchSchema, NOT_FOUND, type Organization, updateAsAdmin } from "@/lib/organizations/organizations.ts";
import { getOrganization, internshipCount, managersOf } from "@/lib/organizations/store.ts";
import { getUserSummaries } from "@/lib/users/users.ts";

interface Data {
  organization: Organization;
  internships: number;
  managers: { name: string; since: string }[];
  values: { name: string; website: string; about: string; isVerified: boolean };
  error: string | null;
}

/** The page's data for organization `id`, with the form's values (the stored ones unless given). */
async function pageData(kv: Deno.Kv, id: string, values?: Data["values"], error: string | null = null) {
  const organization = (await getOrganization(kv, id)).value;
  if (!organization) throw new NotFoundError(NOT_FOUND);
  const managers = await managersOf(kv, id);
  const users = await getUserSummaries(kv, managers.map((manager) => manager.userId));
  return {
    organization,
    internships: await internshipCount(kv, id),
    managers: managers.map((m) => ({ name: users.get(m.userId)?.name ?? "Unknown user", since: m.since })),
    values: values ?? {
      name: organization.name,
      website: organization.website ?? "",
      about: organization.about ?? "",
      isVerified: organization.isVerified,
    },
    error,
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    return ctx.render(await pageData(ctx.state.services.kv, ctx.params.id));
  },

  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const { id } = ctx.params;
    const form = await readFormFields(req, ["name", "website", "about", "isVerified"]);
    const values = { name: form.name, website: form.website, about: form.about, isVerified: form.isVerified === "on" };
    const patch = AdminPatchSchema.safeParse({
      name: form.name,
      website: form.website.trim() || null,
      about: form.about,
      isVerified: values.isVerified,
    });
    if (!patch.success) {
      const error = "Check the fields: a name of 1 to 200 characters and a website starting with https://.";
      return ctx.render(await pageData(kv, id, values, error), { status: 400 });
    }
    try {
      await updateAsAdmin(kv, { id, patch: patch.data });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return ctx.render(await pageData(kv, id, values, error.message), { status: 409 });
    }
    return seeOther(`/admin/organizations/${id}?saved=1`);
  },
});

export default define.page<Data>(function AdminOrganizationPage({ data, url }) {
  const { organization, values } = data;
  return (
    <section aria-labelledby="page-title" class="max-w-2xl space-y-6">
      <PageHead title={`${organization.name} · Organizations · Admin`} />
      <a href="/admin/organizations" class="text-sm text-indigo-700 underline">← All organizations</a>
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900 [overflow-wrap:anywhere]">
          {organization.name}
        </h1>
        <p class="mt-2 text-slate-700">
          <a href={`/organizations/${organization.slug}`} class="text-indigo-700 underline">
            /organizations/{organization.slug}
          </a>{" "}
          · {data.internships === 1 ? "1 listing" : `${data.internships} listings`}
          {organization.verifiedAt && (
            <>
              {" "}· verified <time datetime={organization.verifiedAt}>{formatDate(organization.verifiedAt)}</time>
              {organization.verifiedDomain ? ` by ${organization.verifiedDomain}` : " by an admin"}
            </>
          )}
        </p>
      </div>
      {url.searchParams.get("saved") === "1" && !data.error && <Notice kind="success">Saved.</Notice>}
      {data.error && <Notice kind="error">{data.error}</Notice>}
      <form method="post" class="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <TextField id="name" label="Name" type="text" required maxLength={200} value={values.name} />
        <TextField
          id="website"
          label="Website"
          type="url"
          maxLength={200}
          value={values.website}
          hint="People at this domain can verify the organization by e-mail."
        />
        <TextAreaField id="about" label="About" rows={4} maxLength={2000} value={values.about} />
        <div class="flex items-center gap-2">
          <input
            id="isVerified"
            name="isVerified"
            type="checkbox"
            checked={values.isVerified}
            class="h-4 w-4 accent-indigo-700"
          />
          <label for="isVerified" class="text-slate-800">Verified</label>
        </div>
        <SubmitButton busy={false} label="Save" busyLabel="Saving…" worksWithoutScript />
      </form>
      <section aria-labelledby="managers-heading">
        <h2 id="managers-heading" class="text-xl font-semibold text-slate-900">Managers</h2>
        {data.managers.length === 0
          ? <p class="mt-2 text-slate-700">Nobody has verified this organization by e-mail yet.</p>
          : (
            <ul class="mt-2 list-disc pl-5 text-slate-800">
              {data.managers.map((manager) => (
                <li key={manager.since + manager.name}>
                  {manager.name}, since <time datetime={manager.since}>{formatDate(manager.since)}</time>
                </li>
              ))}
            </ul>
          )}
      </section>
    </section>
  );
});
