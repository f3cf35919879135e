/** The admin area's navigation. Each admin capability adds its page to `ADMIN_LINKS`. */

/** The admin pages, in menu order. */
export const ADMIN_LINKS: { href: string; label: string }[] = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/internships", label: "Internships" },
  { href: "/admin/opportunities", label: "Opportunities" },
  { href: "/admin/toolkits", label: "Toolkits" },
  { href: "/admin/coupons", label: "Coupons" },
  { href: "/admin/purchases", label: "Purchases" },
  { href: "/admin/ungatekeep", label: "Ungatekeep posts" },
  { href: "/admin/comments", label: "Comments" },
  { href: "/admin/banners", label: "Banners" },
  { href: "/admin/outbox", label: "E-mail outbox" },
];

export function AdminNav({ path }: { path: string }) {
  return (
    <nav aria-label="Admin" class="md:w-48 md:shrink-0">
      <p class="text-xs font-semibold uppercase tracking-wide text-slate-700">Admin</p>
      <ul class="mt-2 flex flex-wrap gap-2 md:flex-col md:gap-1">
        {ADMIN_LINKS.map((link) => {
          const current = path === link.href || (link.href !== "/admin" && path.startsWith(link.href + "/"));
          return (
            <li key={link.href}>
              <a
                href={link.href}
                aria-current={current ? "page" : undefined}
                class={`block rounded-md px-3 py-2 text-sm font-medium ${
                  current ? "bg-indigo-700 text-white" : "text-slate-800 hover:bg-slate-200"
                }`}
              >
                {link.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
