/**
 * `/admin/api-keys`: the ingest API keys (admins only, by `_middleware.ts`; docs/decisions.md, Auth, "Ingest user";
 * docs/decisions.md, Islands, "Forms work without JavaScript"), with no island: the list (name and day made, never the
 * key), a plain form to make one and each key's "Revoke". `POST` takes them by `intent`: `create` (`name`) makes a key
 * as `POST /api/admin/api-keys` does and renders the page with the new key, the only time it is shown (201, not
 * stored in any cache), or the page again with the problem at the field (400); `revoke` (`id`) revokes one, 303 to
 * `?revoked=1`, or the page again with the refusal's sentence (404). A key's "Revoke" is a link to `?revoke={id}`, this
 * page with a confirmation naming that key.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import { Notice, TextField } from "@/components/forms.tsx";
import { type ApiKey, ApiKeyCreateSchema, createApiKey, listApiKeys, revokeApiKey } from "@/lib/api_keys/api_keys.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { DomainError, InvalidInputError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { refusalText } from "@/lib/refusals.ts";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  apiKeys: ApiKey[];
  /** The key just made, with its secret: shown this once. */
  made?: { apiKey: ApiKey; key: string };
  /** "Revoked." after a revoke's redirect. */
  revoked: boolean;
  /** The create form's name as sent and its problem, when refused. */
  name: string;
  nameError: string;
  /** A refused revoke's sentence; "" for none. */
  error: string;
  /** The key whose "Revoke" link was followed (`?revoke={id}`), to confirm. */
  doomed?: ApiKey;
}

const EMPTY = { revoked: false, name: "", nameError: "", error: "" };

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const apiKeys = await listApiKeys(ctx.state.services.kv);
    const params = ctx.url.searchParams;
    return ctx.render({
      ...EMPTY,
      apiKeys,
      revoked: params.get("revoked") === "1",
      doomed: apiKeys.find((apiKey) => apiKey.id === params.get("revoke")),
    });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv } = ctx.state.services;
    const { t } = ctx.state;
    const { intent, name, id } = await readFormFields(req, ["intent", "name", "id"]);
    const again = async (status: number, problems: Partial<Data>, headers?: HeadersInit) =>
      ctx.render({ ...EMPTY, apiKeys: await listApiKeys(kv), ...problems }, { status, headers });
    if (intent === "create") {
      const input = ApiKeyCreateSchema.safeParse({ name });
      if (!input.success) {
        const [problem] = fieldProblems(input.error.issues);
        return await again(400, { name, nameError: fieldText(t, problem) });
      }
      const audit = adminAudit(ctx.state, { action: "api_key.create", targetKind: "api_key" });
      const made = await createApiKey(kv, ctx.state.user, { name: input.data.name, audit });
      return await again(201, { made }, { "cache-control": "no-store" });
    }
    try {
      if (intent !== "revoke") throw new InvalidInputError("Unknown intent");
      const audit = adminAudit(ctx.state, { action: "api_key.revoke", targetKind: "api_key" });
      await revokeApiKey(kv, id, audit);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return await again(errorResponse(error).status, { error: refusalText(t, error) });
    }
    return seeOther("/admin/api-keys?revoked=1");
  },
});

export default define.page<Data>(function AdminApiKeysPage({ data }) {
  const t = useT();
  const { made, doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.apiKeys") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.apiKeys")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.apiKeys.lead")}</p>
      </div>
      {made && (
        <Notice kind="success" title={t("admin.apiKeys.made", { name: made.apiKey.name })}>
          <p>{t("admin.apiKeys.shownOnce")}</p>
          <label for="new-key" class="mt-2 block font-medium">{t("admin.apiKeys.theKey")}</label>
          <input
            id="new-key"
            readOnly
            value={made.key}
            class="mt-1 block w-full rounded-md border border-green-400 bg-white px-3 py-2 font-mono text-sm text-slate-900"
          />
          <p class="mt-2">{t("admin.apiKeys.howToUse")}</p>
        </Notice>
      )}
      {data.revoked && <Notice kind="success">{t("admin.apiKeys.revokedDone")}</Notice>}
      {data.error && <Notice kind="error" title={t("admin.apiKeys.notRevoked")}>{data.error}</Notice>}
      {doomed && (
        <DeleteConfirmation
          id="revoke-key"
          title={t("admin.apiKeys.revokeTitle")}
          text={t("admin.apiKeys.revokeText", { name: doomed.name })}
          confirm={t("admin.apiKeys.revoke")}
          action="/admin/api-keys"
          fields={{ intent: "revoke", id: doomed.id }}
          cancelHref="/admin/api-keys"
        />
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading" class="text-xl font-semibold text-slate-900">{t("admin.apiKeys.listHeading")}</h2>
        {data.apiKeys.length === 0
          ? <p class="mt-2 text-slate-700">{t("admin.apiKeys.none")}</p>
          : (
            <ul class="mt-3 divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
              {data.apiKeys.map((apiKey) => (
                <li key={apiKey.id} class="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                  <div class="min-w-0">
                    <p class="font-medium text-slate-900 [overflow-wrap:anywhere]">{apiKey.name}</p>
                    <p class="text-sm text-slate-700">
                      {t.rich("admin.apiKeys.madeOn", {
                        date: <time datetime={apiKey.createdAt}>{t.date(apiKey.createdAt)}</time>,
                      })}
                    </p>
                  </div>
                  <a
                    href={`/admin/api-keys?revoke=${apiKey.id}#revoke-key`}
                    aria-label={t("admin.apiKeys.revokeNamed", { name: apiKey.name })}
                    class={SECONDARY_BUTTON}
                  >
                    {t("admin.apiKeys.revoke")}
                  </a>
                </li>
              ))}
            </ul>
          )}
      </section>
      <section aria-labelledby="make-heading" class="rounded-md border border-slate-200 bg-white p-4">
        <h2 id="make-heading" class="text-xl font-semibold text-slate-900">{t("admin.apiKeys.makeHeading")}</h2>
        <form method="post" action="/admin/api-keys" noValidate class="mt-3 space-y-3">
          <input type="hidden" name="intent" value="create" />
          <TextField
            id="name"
            label={t("admin.apiKeys.name")}
            hint={t("admin.apiKeys.nameHint")}
            error={data.nameError || undefined}
            value={data.name}
            maxLength={100}
            required
          />
          <button type="submit" class={PRIMARY_BUTTON}>{t("admin.apiKeys.make")}</button>
        </form>
      </section>
    </section>
  );
});
