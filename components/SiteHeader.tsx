/** The site header: brand, main navigation, and the signed-in user with sign-out. */
import type { User } from "@/lib/users/users.ts";

const NAV = [
  { href: "/internships", label: "Internships" },
  { href: "/opportunities", label: "Opportunities" },
  { href: "/toolkits", label: "Toolkits" },
  { href: "/ungatekeep", label: "Ungatekeep" },
];

export function SiteHeader({ user, path }: { user?: User; path: string }) {
  return (
    <header class="border-b border-slate-200 bg-white">
      <nav aria-label="Main" class="max-w-6xl mx-auto px-4 min-h-16 py-2 flex flex-wrap items-center gap-x-6 gap-y-2">
        <a href="/" class="font-bold text-lg text-indigo-700 whitespace-nowrap">Career Community</a>
        <ul class="flex gap-4 text-sm">
          {NAV.map((item) => (
            <li key={item.href}>
              <a
                href={item.href}
                aria-current={path.startsWith(item.href) ? "page" : undefined}
                class="text-slate-700 hover:text-indigo-700 aria-[current=page]:font-semibold"
              >
                {item.label}
              </a>
            </li>
          ))}
          {user?.role === "admin" && (
            <li>
              <a
                href="/admin"
                aria-current={path === "/admin" || path.startsWith("/admin/") ? "page" : undefined}
                class="text-slate-700 hover:text-indigo-700 aria-[current=page]:font-semibold"
              >
                Admin
              </a>
            </li>
          )}
        </ul>
        <div class="ml-auto flex items-center gap-3 text-sm">
          {user
            ? (
              <>
                <a href="/profile" class="text-slate-700 hover:text-indigo-700">{user.name}</a>
                <form method="post" action="/sign-out">
                  <button type="submit" class="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100">
                    Sign out
                  </button>
                </form>
              </>
            )
            : (
              <>
                <a href="/sign-in" class="text-slate-700 hover:text-indigo-700">Sign in</a>
                <a
                  href="/sign-up"
                  class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700"
                >
                  Sign up
                </a>
              </>
            )}
        </div>
      </nav>
    </header>
  );
}
