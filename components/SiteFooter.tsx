/**
 * The site footer on every page: the pages a payment gateway and the law ask for (privacy with the grievance
 * contact, terms, cancellation and refunds, contact), the API reference, and the feed of posts
 * (docs/decisions.md, Data rights).
 */

const LINKS = [
  { href: "/privacy", label: "Privacy" },
  { href: "/terms", label: "Terms" },
  { href: "/refunds", label: "Cancellation and refunds" },
  { href: "/contact", label: "Contact" },
  { href: "/api/docs", label: "API" },
  { href: "/ungatekeep/rss.xml", label: "RSS" },
];

/** The footer; `grievanceEmail` (`GRIEVANCE_EMAIL`) is shown beside the privacy link when set. */
export function SiteFooter({ grievanceEmail }: { grievanceEmail?: string }) {
  return (
    <footer class="border-t border-slate-200 py-6 text-center text-sm text-slate-700">
      <nav aria-label="Footer" class="mx-auto max-w-6xl px-4">
        <ul class="flex flex-wrap justify-center gap-x-5 gap-y-2">
          {LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} class="underline hover:text-indigo-700">{link.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      {grievanceEmail && (
        <p class="mt-3">
          Grievances about your data: <a href={`mailto:${grievanceEmail}`} class="underline">{grievanceEmail}</a> (see
          {" "}
          <a href="/privacy#grievances" class="underline">Privacy</a>)
        </p>
      )}
      <p class="mt-3">Career Community — for students and early-career builders</p>
    </footer>
  );
}
