/**
 * `/me/data`: "Your data", the signed-in person's data export read aloud in their language (docs/decisions.md, Data
 * rights, "Your data page"): the account, the résumé with its file, each application and purchase by title with its
 * status, date and amount in rupees, and how many records of every other kind are kept, each with where to see it;
 * the download of the whole export as a JSON file comes first. Guests are sent to sign in and back. It counts most
 * sections from their index entries instead of building the export, so it has its own per-person limit, `data`, and
 * spends none of the download's; a phone never keeps it offline.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { type DataSummary, dataSummary } from "@/lib/account/data_summary.ts";
import { formatBytes } from "@/lib/browser/application_format.ts";
import { PRIMARY_BUTTON } from "@/lib/browser/styles.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/**
 * It reads every section of the export, most as counts: the per-person limit `data`, not the download's `export`
 * (docs/decisions.md, Errors and limits, "Per-person limits").
 */
export const routeOptions: RouteOptions = { personLimit: "data" };

interface Data {
  summary: DataSummary;
  /** The sign-in methods as the page names them ("E-mail and password", "Google"). */
  methods: string[];
}

/** Where a counted section's records can be seen or changed, when a page shows them. */
const WHERE: Record<string, string> = {
  saved: "/me/tracker",
  alerts: "/me/alerts",
  notifications: "/me/notifications",
  certificates: "/toolkits/mine",
  progress: "/toolkits/mine",
  sessions: "/profile",
  pushSubscriptions: "/me/settings",
};

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, oauth } = ctx.state.services;
    const summary = await dataSummary(kv, ctx.state.user);
    const methods = summary.account.signInMethods.map((method) =>
      method === "email" ? ctx.state.t("profile.page.emailMethod") : oauth.providers[method].name
    );
    return ctx.render({ summary, methods });
  },
});

const H2 = "text-lg font-semibold text-slate-900";
const BOX = "mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm";
const LINK = "font-medium text-indigo-700 underline";

export default define.page<Data>(function DataPage({ data }) {
  const t = useT();
  const { account, resume, applications, purchases, counts } = data.summary;
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl">
      <PageHead title={t("me.data.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("me.data.title")}</h1>
      <p class="mt-2 text-slate-700">{t("me.data.lead")}</p>
      <Download />

      <section aria-labelledby="data-account" class="mt-8">
        <h2 id="data-account" class={H2}>{t("me.data.account")}</h2>
        <dl class={`${BOX} text-sm`}>
          <Row label="me.data.name" value={account.name} />
          <Row
            label="me.data.email"
            value={`${account.email} · ${t(account.emailVerified ? "me.data.verified" : "me.data.notVerified")}`}
          />
          <Row label="me.data.joined" value={t.date(account.createdAt)} />
          <Row label="me.data.college" value={account.collegeInstitute ?? t("me.data.none")} />
          <Row label="me.data.phone" value={account.contactNumber ?? t("me.data.none")} />
          <Row label="me.data.signIn" value={data.methods.join(", ") || t("me.data.none")} />
          <Row label="me.data.onboarding" value={t(account.onboarded ? "me.data.kept" : "me.data.none")} />
        </dl>
        <p class="mt-2 text-sm">
          <a href="/profile" class={LINK}>{t("me.data.changeProfile")}</a>
        </p>
      </section>

      <section aria-labelledby="data-resume" class="mt-8">
        <h2 id="data-resume" class={H2}>{t("me.data.resume")}</h2>
        {resume
          ? (
            <p class="mt-2 text-sm text-slate-700">
              {t.rich("me.data.resumeKept", {
                file: (chunks) => <a href="/api/me/resume/file" class={LINK}>{chunks}</a>,
                name: resume.name,
                size: formatBytes(t, resume.size),
                date: t.date(resume.uploadedAt),
              })}
            </p>
          )
          : <p class="mt-2 text-sm text-slate-700">{t("me.data.noResume")}</p>}
      </section>

      <section aria-labelledby="data-applications" class="mt-8">
        <h2 id="data-applications" class={H2}>{t("me.data.applications", { count: applications.length })}</h2>
        {applications.length === 0
          ? <p class="mt-2 text-sm text-slate-700">{t("me.data.noApplications")}</p>
          : (
            <ul class={`${BOX} text-sm`}>
              {applications.map((a) => (
                <li key={a.id} class="px-4 py-3">
                  <a href={`/me/applications/${a.id}`} class={LINK}>{a.title ?? t("me.data.listingGone")}</a>
                  <p class="text-slate-700">
                    {t("me.data.applicationLine", {
                      status: t.dynamic(`applications.status.${a.status}`),
                      date: t.date(a.createdAt),
                    })}
                  </p>
                </li>
              ))}
            </ul>
          )}
      </section>

      <section aria-labelledby="data-purchases" class="mt-8">
        <h2 id="data-purchases" class={H2}>{t("me.data.purchases", { count: purchases.length })}</h2>
        {purchases.length === 0
          ? <p class="mt-2 text-sm text-slate-700">{t("me.data.noPurchases")}</p>
          : (
            <ul class={`${BOX} text-sm`}>
              {purchases.map((p) => (
                <li key={p.id} class="px-4 py-3">
                  <p class="font-medium text-slate-900">{p.title ?? t("me.data.toolkitGone")}</p>
                  <p class="text-slate-700">
                    {t("me.data.purchaseLine", {
                      amount: t.minorUnits(p.amountPaid),
                      status: t.dynamic(`toolkits.mine.status.${p.paymentStatus}`),
                      date: t.date(p.createdAt),
                    })}
                  </p>
                  {p.receiptUrl && <a href={p.receiptUrl} class={LINK}>{t("me.data.receipt")}</a>}
                </li>
              ))}
            </ul>
          )}
      </section>

      <section aria-labelledby="data-other" class="mt-8">
        <h2 id="data-other" class={H2}>{t("me.data.other")}</h2>
        <p class="mt-2 text-sm text-slate-700">{t("me.data.otherLead")}</p>
        <dl class={`${BOX} text-sm`}>
          {counts.map(({ name, label, count }) => (
            <div key={name} class="flex items-baseline justify-between gap-4 px-4 py-2">
              <dt class="text-slate-900">
                {WHERE[name] && count > 0 ? <a href={WHERE[name]} class={LINK}>{t(label)}</a> : t(label)}
              </dt>
              <dd class="tabular-nums text-slate-900">{t.number(count)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </section>
  );
});

/** One line of the account's facts. */
function Row({ label, value }: { label: MessageKey; value: string }) {
  const t = useT();
  return (
    <div class="px-4 py-2 sm:flex sm:gap-4">
      <dt class="text-slate-700 sm:w-40 sm:shrink-0">{t(label)}</dt>
      <dd class="break-words font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/** The download of the whole export, with what the file is. */
function Download() {
  const t = useT();
  return (
    <div class="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <a href="/api/me/export" download class={`${PRIMARY_BUTTON} inline-block`}>{t("me.data.download")}</a>
      <p class="mt-2 text-sm text-slate-700">{t("me.data.downloadDetail")}</p>
    </div>
  );
}
