/**
 * The admin area's navigation. Each admin capability adds its page to `ADMIN_LINKS`. From `md` up
 * it is a column of links beside the page; on a phone it is one row, a "Menu" disclosure naming
 * the current page (a `<details>`, so it opens without JavaScript) that opens the links in two
 * columns, so the page's content starts near the top; Escape closes it (`data-menu`, as the header's menus). The
 * current page is marked `aria-current`.
 */
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The admin pages, in menu order, with the keys of their names. */
const ADMIN_LINKS: { href: string; label: MessageKey }[] = [
  { href: "/admin", label: "admin.nav.dashboard" },
  { href: "/admin/users", label: "admin.nav.users" },
  { href: "/admin/internships", label: "admin.nav.internships" },
  { href: "/admin/opportunities", label: "admin.nav.opportunities" },
  { href: "/admin/moderation", label: "admin.nav.moderation" },
  { href: "/admin/organizations", label: "admin.nav.organizations" },
  { href: "/admin/reports", label: "admin.nav.reports" },
  { href: "/admin/toolkits", label: "admin.nav.toolkits" },
  { href: "/admin/coupons", label: "admin.nav.coupons" },
  { href: "/admin/purchases", label: "admin.nav.purchases" },
  { href: "/admin/ungatekeep", label: "admin.nav.ungatekeep" },
  { href: "/admin/comments", label: "admin.nav.comments" },
  { href: "/admin/banners", label: "admin.nav.banners" },
  { href: "/admin/api-keys", label: "admin.nav.apiKeys" },
  { href: "/admin/outbox", label: "admin.nav.outbox" },
  { href: "/admin/jobs", label: "admin.nav.jobs" },
  { href: "/admin/log", label: "admin.nav.log" },
];

/** True when `path` is the page of `href` or one under it (the dashboard only for itself). */
function isCurrent(path: string, href: string): boolean {
  return path === href || (href !== "/admin" && path.startsWith(href + "/"));
}

export function AdminNav({ path }: { path: string }) {
  const t = useT();
  const current = ADMIN_LINKS.find((link) => isCurrent(path, link.href));
  return (
    <nav aria-label={t("admin.nav.label")} class="md:w-48 md:shrink-0">
      <details
        data-menu
        class="group rounded-md border border-slate-300 bg-white md:border-0 md:bg-transparent md:details-content:[content-visibility:visible]"
      >
        <summary class="flex cursor-pointer list-none items-center justify-between gap-2 px-3 py-2 text-sm md:hidden [&::-webkit-details-marker]:hidden">
          <span class="min-w-0 truncate">
            <span class="font-semibold text-slate-800">{t("admin.nav.menu")}</span>
            {current && <span class="text-slate-700">{`: ${t(current.label)}`}</span>}
          </span>
          <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 shrink-0 fill-current group-open:rotate-180">
            <path d="M5.2 7.5 10 12.3l4.8-4.8 1.1 1.1L10 14.5 4.1 8.6z" />
          </svg>
        </summary>
        <p class="hidden text-xs font-semibold uppercase tracking-wide text-slate-700 md:block">
          {t("admin.nav.label")}
        </p>
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
                  {t(link.label)}
                </a>
              </li>
            );
          })}
        </ul>
      </details>
    </nav>
  );
}
