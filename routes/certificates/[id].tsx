/**
 * `/certificates/{id}`: a certificate's public page (no sign-in): the learner's name, the toolkit, the date and serial,
 * "Revoked" after a refund, "Copy link" (`CopyLink`, a plain link without JavaScript), printing as one landscape page
 * (neither on a revoked one), and for its holder "Add to LinkedIn" and the way back to the toolkit (docs/decisions.md,
 * Money operations, "Certificates"). A certificate deleted with its holder's account: 410 with a page that says it is no
 * longer available, naming no one; an id no certificate ever had: 404 with a page that says so.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { type Certificate, certificatePath, certificatesOf, findCertificate } from "@/lib/certificates/certificates.ts";
import PrintButton from "@/islands/PrintButton.tsx";
import CopyLink from "@/islands/CopyLink.tsx";

interface CertificateData {
  certificate: Certificate;
  url: string;
  linkedIn: string;
  organization: string;
  /** The signed-in visitor holds it: LinkedIn and the way back to the toolkit are theirs. */
  holder: boolean;
}

/** What the page shows: the certificate, or why there is none at this address. */
type Data = CertificateData | { missing: "removed" | "unknown" };

/** LinkedIn's add-to-profile address for a certification, filled with the certificate's details. */
function linkedInUrl(certificate: Certificate, url: string, organization: string): string {
  const issued = new Date(certificate.issuedAt);
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: certificate.toolkitTitle,
    organizationName: organization,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: url,
    certId: certificate.serial,
  });
  return `https://www.linkedin.com/profile/add?${params}`;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv, config } = ctx.state.services;
    const certificate = await findCertificate(kv, ctx.params.id);
    if (certificate === "removed") return ctx.render({ missing: "removed" }, { status: 410 });
    if (!certificate) return ctx.render({ missing: "unknown" }, { status: 404 });
    const url = `${config.appUrl}${certificatePath(certificate.id)}`;
    const organization = config.seller.name ?? "Career Community";
    const user = ctx.state.user;
    const holder = user ? (await certificatesOf(kv, user.id)).some((mine) => mine.id === certificate.id) : false;
    return ctx.render({
      certificate,
      url,
      organization,
      linkedIn: linkedInUrl(certificate, url, organization),
      holder,
    });
  },
});

/** `url` with a line break opportunity after each single slash, so a line ends there rather than inside an id. */
function withBreaksAfterSlashes(url: string) {
  return url.split(/(?<=[^/]\/)/).flatMap((part, i) => i === 0 ? [part] : [<wbr key={i} />, part]);
}

/** The page of an address that holds no certificate (any more). */
function NoCertificate({ missing }: { missing: "removed" | "unknown" }) {
  const t = useT();
  const title = t(missing === "removed" ? "toolkits.certificate.removedTitle" : "toolkits.certificate.unknownTitle");
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl py-12 text-center">
      <PageHead title={title} />
      <h1 id="page-title" class="text-3xl font-bold text-slate-900">{title}</h1>
      <p class="mt-3 text-slate-700">
        {t(missing === "removed" ? "toolkits.certificate.removedText" : "toolkits.certificate.unknownText")}
      </p>
      <a href="/toolkits" class="mt-6 inline-block font-medium text-indigo-700 underline">
        {t("toolkits.certificate.browse")}
      </a>
    </section>
  );
}

export default define.page<Data>(function CertificatePage({ data }) {
  const t = useT();
  if ("missing" in data) return <NoCertificate missing={data.missing} />;
  const { certificate: c, url, linkedIn, organization, holder } = data;
  const revoked = c.revokedAt !== null;
  return (
    <div class="mx-auto max-w-4xl space-y-4">
      <PageHead
        title={t("toolkits.certificate.pageTitle", { name: c.userName, toolkit: c.toolkitTitle })}
        description={t("toolkits.certificate.description", {
          name: c.userName,
          toolkit: c.toolkitTitle,
          organization,
        })}
      />
      {revoked && (
        <p role="status" class="rounded-md border border-red-300 bg-red-50 p-3 font-semibold text-red-900">
          {t("toolkits.certificate.revoked", { date: t.date(c.revokedAt!) })}
        </p>
      )}
      <article
        aria-labelledby="page-title"
        class="certificate rounded-lg border-8 border-double border-indigo-800 bg-white px-6 py-12 text-center shadow-sm sm:px-12 print:shadow-none"
      >
        <p class="text-sm font-semibold uppercase tracking-[0.3em] text-indigo-800">{organization}</p>
        <h1 id="page-title" class="mt-4 text-3xl font-bold text-slate-900 sm:text-4xl">
          {t(revoked ? "toolkits.certificate.headingRevoked" : "toolkits.certificate.heading")}
        </h1>
        <p class="mt-8 text-slate-700">{t("toolkits.certificate.certifies")}</p>
        <p class="mt-2 text-3xl font-semibold text-slate-900 sm:text-4xl">{c.userName}</p>
        <p class="mt-6 text-slate-700">{t("toolkits.certificate.completed")}</p>
        <p class="mt-2 text-2xl font-semibold text-slate-900">{c.toolkitTitle}</p>
        <dl class="mt-10 grid gap-4 text-sm text-slate-800 sm:grid-cols-2">
          <div>
            <dt class="font-semibold">{t("toolkits.certificate.issued")}</dt>
            <dd>
              <time datetime={c.issuedAt}>{t.date(c.issuedAt)}</time>
            </dd>
          </div>
          <div>
            <dt class="font-semibold">{t("toolkits.certificate.serial")}</dt>
            <dd class="font-mono">{c.serial}</dd>
          </div>
        </dl>
        <p class="mt-8 text-xs text-slate-700 [overflow-wrap:anywhere]">
          {t.rich("toolkits.certificate.verify", { url: () => withBreaksAfterSlashes(url) })}
        </p>
      </article>
      <div class="flex flex-wrap items-center gap-3 print:hidden">
        {!revoked && holder && (
          <a
            href={linkedIn}
            target="_blank"
            rel="noopener noreferrer"
            class="rounded-md bg-sky-800 px-4 py-2 font-medium text-white hover:bg-sky-900"
          >
            {t.rich("toolkits.certificate.linkedIn", {
              newTab: (chunks) => <span class="sr-only">{chunks}</span>,
            })}
          </a>
        )}
        {!revoked && (
          <CopyLink
            url={url}
            label={t("toolkits.certificate.copyLink")}
            copied={t("toolkits.certificate.copied")}
          />
        )}
        {!revoked && <PrintButton label={t("toolkits.certificate.print")} />}
        {holder && (
          <a href={`/toolkits/${c.toolkitId}`} class="text-indigo-700 underline hover:text-indigo-900">
            ← {c.toolkitTitle}
          </a>
        )}
      </div>
    </div>
  );
});
