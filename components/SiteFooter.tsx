/**
 * The site footer on every page: the pages a payment gateway and the law ask for (privacy with the grievance
 * contact, terms, cancellation and refunds, contact), the API reference, and the feed of posts
 * (docs/decisions.md, Data rights).
 */
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

const LINKS: { href: string; label: MessageKey }[] = [
  { href: "/privacy", label: "layout.footer.privacy" },
  { href: "/terms", label: "layout.footer.terms" },
  { href: "/refunds", label: "layout.footer.refunds" },
  { href: "/contact", label: "layout.footer.contact" },
  { href: "/api/docs", label: "layout.footer.api" },
  { href: "/ungatekeep/rss.xml", label: "layout.footer.rss" },
];

/**
 * The footer; its links are at least 44 px tall, a thumb's tap on a phone. `grievanceEmail` (`GRIEVANCE_EMAIL`) is
 * shown beside the privacy link when set.
 */
export function SiteFooter({ grievanceEmail }: { grievanceEmail?: string }) {
  const t = useT();
  return (
    <footer class="border-t border-slate-200 px-4 py-6 text-center text-sm text-slate-700">
      <nav aria-label={t("layout.footer.label")} class="mx-auto max-w-6xl px-4">
        <ul class="flex flex-wrap justify-center gap-x-5">
          {LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} class="inline-flex min-h-11 items-center underline hover:text-indigo-700">
                {t(link.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {grievanceEmail && (
        <p class="mt-3">
          {t.rich("layout.footer.grievances", {
            mail: <a href={`mailto:${grievanceEmail}`} class="underline">{grievanceEmail}</a>,
            privacy: (chunks) => <a href="/privacy#grievances" class="underline">{chunks}</a>,
          })}
        </p>
      )}
      <p class="mt-3">{t("layout.footer.tagline")}</p>
    </footer>
  );
}
