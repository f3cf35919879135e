/**
 * The admin area's navigation. Each admin capability adds its page to `ADMIN_LINKS`. From `md` up
 * it is a column of links beside the page; on a phone it is one row, a "Menu" disclosure naming
 * the current page (a `<details>`, so it opens without JavaScript) that opens the links in two
 * columns, so the page's content starts near the top. The current page is marked `aria-current`.
 */

/** The admin pages, in menu order. */
const ADMIN_LINKS: { href: string; label: string }[] = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/internships", label: "Internships" },
  { href: "/admin/opportunities", label: "Opportunities" },
  { href: "/admin/moderation", label: "Moderation" },
  { href: "/admin/organizations", label: "Organizations" },
  { href: "/admin/reports", label: "Reports" },
  { href: "/admin/toolkits", label: "Toolkits" },
  { href: "/admin/coupons", label: "Coupons" },
  { href: "/admin/purchases", label: "Purchases" },
  { href: "/admin/ungatekeep", label: "Ungatekeep posts" },
  { href: "/admin/comments", label: "Comments" },
  { href: "/admin/banners", label: "Banners" },
  { href: "/admin/outbox", label: "E-mail outbox" },
];

/** True when `path` is the page of `href` or one under it (the dashboard only for itself). */
function isCurrent(path: string, href: string): boolean {
  return path === href || (href !== "/admin" && path.startsWith(href + "/"));
}

export function AdminNav({ path }: { path: string }) {
  const current = ADMIN_LINKS.find((link) => isCurrent(path, link.href));
  return (
    <nav aria-label="Admin" class="md:w-48 md:shrink-0">
      <details class="group rounded-md border border-slate-300 bg-white md:border-0 md:bg-transparent md:details-content:[content-visibility:visible]">
        <summary class="flex cursor-pointer list-none items-center justify-between gap-2 px-3 py-2 text-sm md:hidden [&::-webkit-details-marker]:hidden">
          <span class="min-w-0 truncate">
            <span class="font-semibold text-slate-800">Admin menu</span>
            {current && <span class="text-slate-700">{`: ${current.label}`}</span>}
          </span>
          <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 shrink-0 fill-current group-open:rotate-180">
            <path d="M5.2 7.5 10 12.3l4.8-4.8 1.1 1.1L10 14.5 4.1 8.6z" />
          </svg>
        </summary>
        <p class="hidden text-xs font-semibold uppercase tracking-wide text-slate-700 md:block">Admin</p>
        <ul class="grid grid-cols-2 gap-1 border-t border-slate-200 p-2 md:mt-2 md:flex md:flex-col md:border-0 md:p-0">
          {ADMIN_LINKS.map((link) => {
            const here = link === current;
            return (
              <li key={link.href}>
                <a
                  href={link.href}
                  aria-current={here ? "page" : undefined}
                  class={`block rounded-md px-3 py-2 text-sm font-medium ${
                    here ? "bg-indigo-700 text-white" : "text-slate-800 hover:bg-slate-200"
                  }`}
                >
                  {link.label}
                </a>
              </li>
            );
          })}
        </ul>
      </details>
    </nav>
  );
}
