/**
 * The site header: brand, main navigation, and the signed-in user with sign-out. Below the `lg`
 * breakpoint the links sit behind a "Menu" button (a `<details>`, so it opens without
 * JavaScript) and open as a panel under the header; from `lg` up they stand in one row, shown
 * by CSS whether the menu is open or not (`::details-content`). A signed-in person also has the
 * notification bell, outside the menu so its count shows on a phone, and links to their own
 * space: in the menu panel on a small screen, and from `lg` up behind an account menu (another
 * `<details>`, named by the person's name) after the bell, as sites usually place them, so the
 * header stays one row at every width. Both account menus list the profile first. On a phone the
 * bell and the Menu button keep their size and the brand wraps when the screen is narrower than
 * 360 px, so nothing sticks out even at 320 px. Both `<details>` are `data-menu`: Escape closes them and returns the
 * focus to their button (`lib/web/client/menus.ts`). The language switch (`LanguageSwitch`) stands before the Menu
 * button on a phone and at the end of the row from `lg` up, so it is one tap away at every width.
 */
import type { User } from "@/lib/users/users.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import { useT } from "@/lib/i18n/context.ts";
import NotificationBell, { BELL_TEXT } from "@/islands/NotificationBell.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { isAdmin } from "@/lib/users/roles.ts";

const NAV: { href: string; label: MessageKey }[] = [
  { href: "/internships", label: "layout.nav.internships" },
  { href: "/opportunities", label: "layout.nav.opportunities" },
  { href: "/toolkits", label: "layout.nav.toolkits" },
  { href: "/ungatekeep", label: "layout.nav.ungatekeep" },
];

const LINK = "block py-2 text-slate-700 hover:text-indigo-700 aria-[current=page]:font-semibold lg:py-0";

/** The signed-in person's own pages, in both account menus. */
const OWN: { href: string; label: MessageKey }[] = [
  { href: "/profile", label: "layout.own.profile" },
  { href: "/me/tracker", label: "layout.own.tracker" },
  { href: "/toolkits/mine", label: "layout.own.toolkits" },
  { href: "/me/alerts", label: "layout.own.alerts" },
  { href: "/me/notifications", label: "layout.own.notifications" },
  { href: "/me/settings", label: "layout.own.settings" },
];

/**
 * The account part of the small-screen menu: for a signed-in person whose account it is, their own pages (profile
 * first) and sign-out; for a guest, sign-in and sign-up.
 */
function AccountLinks({ user, path, class: layout }: { user?: User; path: string; class: string }) {
  const t = useT();
  const signIn = path === "/" || path.startsWith("/sign-")
    ? "/sign-in"
    : `/sign-in?${new URLSearchParams({ callbackURL: path })}`;
  if (!user) {
    return (
      <div class={`flex-wrap items-center gap-3 ${layout}`}>
        <a href={signIn} class="text-slate-700 hover:text-indigo-700">{t("layout.account.signIn")}</a>
        <a href="/sign-up" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">
          {t("layout.account.signUp")}
        </a>
      </div>
    );
  }
  return (
    <div class={`flex-col ${layout}`}>
      <p class="text-slate-700">
        {t.rich("layout.account.signedInAs", { name: <span class="font-medium text-slate-900">{user.name}</span> })}
      </p>
      <ul class="mt-1">
        {OWN.map((item) => (
          <li key={item.href}>
            <a href={item.href} aria-current={path === item.href ? "page" : undefined} class={LINK}>
              {t(item.label)}
            </a>
          </li>
        ))}
      </ul>
      <form method="post" action="/sign-out" class="mt-2">
        <button type="submit" class="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100">
          {t("layout.account.signOut")}
        </button>
      </form>
    </div>
  );
}

const MENU_ITEM =
  "block px-4 py-2 text-slate-800 hover:bg-slate-100 hover:text-indigo-700 aria-[current=page]:font-semibold";

/** From `lg` up, a signed-in person's own pages, profile and sign-out behind a button showing their name. */
function AccountMenu({ user, path }: { user: User; path: string }) {
  const t = useT();
  return (
    <details data-menu class="group relative hidden text-sm lg:order-3 lg:block">
      <summary class="flex cursor-pointer list-none items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <span class="sr-only">{t("layout.account.menu")}</span> <span class="max-w-48 truncate">{user.name}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 shrink-0 fill-current group-open:rotate-180">
          <path d="M5.3 7.3 10 12l4.7-4.7 1.1 1.1L10 14.2 4.2 8.4z" />
        </svg>
      </summary>
      <div class="absolute right-0 top-full z-20 mt-2 w-56 rounded-md border border-slate-200 bg-white py-2 shadow-lg">
        <ul>
          {OWN.map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={path === item.href ? "page" : undefined} class={MENU_ITEM}>
                {t(item.label)}
              </a>
            </li>
          ))}
        </ul>
        <form method="post" action="/sign-out" class="mt-2 border-t border-slate-200 pt-2">
          <button type="submit" class={`${MENU_ITEM} w-full text-left`}>{t("layout.account.signOut")}</button>
        </form>
      </div>
    </details>
  );
}

/**
 * The header of every page: `path` is the page's path (the current link is marked), `pageUrl` its path and query as `selfLink` hands it on
 * (where the language switch comes back to); `unreadCount` the person's unread count when the page read it (the bell
 * shows it before it hydrates).
 */
export function SiteHeader(
  { user, unreadCount, path, pageUrl }: { user?: User; unreadCount?: number; path: string; pageUrl: string },
) {
  const t = useT();
  const links: typeof NAV = isAdmin(user) ? [...NAV, { href: "/admin", label: "layout.nav.admin" }] : NAV;
  return (
    <header class="border-b border-slate-200 bg-white">
      <nav
        aria-label={t("layout.nav.main")}
        class="relative max-w-6xl mx-auto px-4 min-h-16 py-2 flex items-center gap-x-3 lg:gap-x-4 xl:gap-x-6"
      >
        <a href="/" class="min-w-0 font-bold text-lg leading-tight text-indigo-700 sm:shrink-0 sm:whitespace-nowrap">
          {t("layout.siteName")}
        </a>
        {user && (
          <div class="ml-auto shrink-0 lg:order-2 lg:ml-0">
            <NotificationBell unreadCount={unreadCount} text={t.island(BELL_TEXT)} />
          </div>
        )}
        <details
          data-menu
          class={`group shrink-0 ${
            user ? "" : "ml-auto"
          } lg:order-1 lg:ml-0 lg:flex-1 lg:shrink lg:details-content:[content-visibility:visible]`}
        >
          <summary class="flex cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 lg:hidden [&::-webkit-details-marker]:hidden">
            <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-current">
              <path d="M3 5h14v1.6H3zm0 4.2h14v1.6H3zm0 4.2h14V15H3z" />
            </svg>
            {t("layout.nav.menu")}
          </summary>
          <div class="absolute inset-x-0 top-full z-20 flex flex-col gap-2 border-b border-slate-200 bg-white px-4 pb-4 pt-2 text-sm shadow-md lg:static lg:flex-row lg:items-center lg:gap-6 lg:border-0 lg:p-0 lg:shadow-none">
            <ul class="flex flex-col lg:flex-row lg:gap-4">
              {links.map((item) => (
                <li key={item.href}>
                  <a
                    href={item.href}
                    aria-current={path === item.href || path.startsWith(`${item.href}/`) ? "page" : undefined}
                    class={LINK}
                  >
                    {t(item.label)}
                  </a>
                </li>
              ))}
            </ul>
            <AccountLinks user={user} path={path} class="flex border-t border-slate-200 pt-3 lg:hidden" />
            <LanguageSwitch back={pageUrl} class="border-t border-slate-200 pt-2 lg:hidden" />
          </div>
        </details>
        {user
          ? <AccountMenu user={user} path={path} />
          : <AccountLinks path={path} class="hidden text-sm lg:order-3 lg:flex" />}
        <LanguageSwitch back={pageUrl} class="hidden text-sm lg:order-4 lg:block" />
      </nav>
    </header>
  );
}
