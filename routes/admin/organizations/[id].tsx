/**
 * `/admin/organizations/{id}` (admins only): edit an organization (docs/decisions.md, Trust, "Organizations"): its
 * name (the slug stays), website, about text and verified state, and see its managers. A plain form posting to this
 * page: 303 back with `?saved=1`, or the page again with what went wrong (400, 409). Unknown ids render the 404 page.
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { refusalText } from "@/lib/refusals.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { ConflictError, NotFoundError } from "@/lib/errors.ts";
import { AdminPatchSchema, NOT_FOUND, type Organization, updateAsAdmin } from "@/lib/organizations/organizations.ts";
import { getOrganization, internshipCount, managersOf } from "@/lib/organizations/store.ts";
import { getUserSummaries } from "@/lib/users/users.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  organization: Organization;
  internships: number;
  /** Each manager's name (null for an account gone since) and the day they verified. */
  managers: { name: string | null; since: string }[];
  values: { name: string; website: string; about: string; isVerified: boolean };
  /** What went wrong with a save: the fields did not pass (`invalid`), or the server's own sentence (a conflict). */
  error: "invalid" | { refused: string } | null;
}

/** The page's data for organization `id`, with the form's values (the stored ones unless given). */
async function pageData(kv: Deno.Kv, id: string, values?: Data["values"], error: Data["error"] = null) {
  const organization = (await getOrganization(kv, id)).value;
  if (!organization) throw new NotFoundError(NOT_FOUND);
  const managers = await managersOf(kv, id);
  const users = await getUserSummaries(kv, managers.map((manager) => manager.userId));
  return {
    organization,
    internships: await internshipCount(kv, id),
    managers: managers.map((m) => ({ name: users.get(m.userId)?.name ?? null, since: m.since })),
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
      return ctx.render(await pageData(kv, id, values, "invalid"), { status: 400 });
    }
    try {
      const audit = adminAudit(ctx.state, { action: "organization.update", targetKind: "organization" });
      await updateAsAdmin(kv, { id, patch: patch.data, audit });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return ctx.render(await pageData(kv, id, values, { refused: refusalText(ctx.state.t, error) }), { status: 409 });
    }
    return seeOther(`/admin/organizations/${id}?saved=1`);
  },
});

export default define.page<Data>(function AdminOrganizationPage({ data, url }) {
  const { organization, values } = data;
  const t = useT();
  const verifiedOn = () => <time datetime={organization.verifiedAt!}>{t.date(organization.verifiedAt!)}</time>;
  return (
    <section aria-labelledby="page-title" class="max-w-2xl space-y-6">
      <PageHead
        title={t("admin.pageTitle", { page: t("admin.organizations.pageTitle", { name: organization.name }) })}
      />
      <a href="/admin/organizations" class="text-sm text-indigo-700 underline">
        {t("admin.organizations.backToAll")}
      </a>
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900 [overflow-wrap:anywhere]">
          {organization.name}
        </h1>
        <p class="mt-2 text-slate-700">
          <a href={`/organizations/${organization.slug}`} class="text-indigo-700 underline">
            {`/organizations/${organization.slug}`}
          </a>{" "}
          · {t("admin.organizations.listingCount", { count: data.internships })}
          {organization.verifiedAt && (
            <>
              {" · "}
              {organization.verifiedDomain
                ? t.rich("admin.organizations.verifiedByDomain", {
                  time: verifiedOn,
                  domain: organization.verifiedDomain,
                })
                : t.rich("admin.organizations.verifiedByAdmin", { time: verifiedOn })}
            </>
          )}
        </p>
      </div>
      {url.searchParams.get("saved") === "1" && !data.error && (
        <Notice kind="success">{t("admin.organizations.saved")}</Notice>
      )}
      {data.error && (
        <Notice kind="error">
          {data.error === "invalid"
            ? t("admin.organizations.invalid")
            : t("common.errors.refused", { error: data.error.refused })}
        </Notice>
      )}
      <form method="post" noValidate class="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <TextField
          id="name"
          label={t("admin.organizations.name")}
          type="text"
          required
          maxLength={200}
          value={values.name}
        />
        <TextField
          id="website"
          label={t("admin.organizations.website")}
          type="url"
          maxLength={200}
          value={values.website}
          hint={t("admin.organizations.websiteHint")}
        />
        <TextAreaField
          id="about"
          label={t("admin.organizations.about")}
          rows={4}
          maxLength={2000}
          value={values.about}
        />
        <div class="flex items-center gap-2">
          <input
            id="isVerified"
            name="isVerified"
            type="checkbox"
            checked={values.isVerified}
            class="h-4 w-4 accent-indigo-700"
          />
          <label for="isVerified" class="text-slate-800">{t("admin.organizations.verified")}</label>
        </div>
        <SubmitButton
          busy={false}
          label={t("admin.organizations.save")}
          busyLabel={t("admin.organizations.saving")}
          worksWithoutScript
        />
      </form>
      <section aria-labelledby="managers-heading">
        <h2 id="managers-heading" class="text-xl font-semibold text-slate-900">{t("admin.organizations.managers")}</h2>
        {data.managers.length === 0
          ? <p class="mt-2 text-slate-700">{t("admin.organizations.noManagers")}</p>
          : (
            <ul class="mt-2 list-disc pl-5 text-slate-800">
              {data.managers.map((manager) => (
                <li key={manager.since + manager.name}>
                  {t.rich("admin.organizations.manager", {
                    name: manager.name ?? t("admin.organizations.unknownUser"),
                    time: () => <time datetime={manager.since}>{t.date(manager.since)}</time>,
                  })}
                </li>
              ))}
            </ul>
          )}
      </section>
    </section>
  );
});
