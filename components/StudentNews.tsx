/**
 * What is new for a signed-in student, shown first on the home page (docs/decisions.md, Student space, "The home
 * page"): their saved listings whose last day comes within a week, then the new matches of their alerts.
 * Each part is left out when it has nothing to say, so "For you" moves up.
 */
import type { ClosingSoon } from "@/lib/saved/saved.ts";
import type { AlertNews } from "@/lib/alerts/news.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** Props: the saved listings closing soon and the alerts' news, as `closingSoon` and `alertNews` answer them. */
export interface StudentNewsProps {
  closing: ClosingSoon[];
  alerts: AlertNews[];
  /** IST today (`YYYY-MM-DD`), to say "today" and "tomorrow". */
  today: string;
}

/** When a saved item's last day is, in words: "Closes today", "Ends tomorrow", "Closes on 12 Jun 2026". */
function when(t: Translate, item: ClosingSoon, today: string): string {
  const internship = item.kind === "internships";
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  if (item.on === today) return t(internship ? "home.news.closesToday" : "home.news.endsToday");
  if (item.on === tomorrow) return t(internship ? "home.news.closesTomorrow" : "home.news.endsTomorrow");
  return t(internship ? "home.news.closesOn" : "home.news.endsOn", { date: t.date(item.on) });
}

const CARD = "rounded-lg border border-slate-200 bg-white p-3 [overflow-wrap:anywhere]";
const LINK = "font-medium text-slate-900 underline decoration-slate-300 underline-offset-2 hover:text-indigo-700";

export function StudentNews({ closing, alerts, today }: StudentNewsProps) {
  const t = useT();
  if (closing.length === 0 && alerts.length === 0) return null;
  return (
    <div class="grid gap-6 md:grid-cols-2">
      {closing.length > 0 && (
        <section aria-labelledby="closing-heading">
          <div class="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="closing-heading" class="text-xl font-bold text-slate-900">{t("home.news.closing")}</h2>
            <a href="/me/tracker" class="text-sm font-medium text-indigo-700 underline">{t("home.news.tracker")}</a>
          </div>
          <ul class="mt-3 space-y-2">
            {closing.map((item) => (
              <li key={`${item.kind}:${item.id}`} class={CARD}>
                <a href={`/${item.kind}/${item.id}`} class={LINK}>{item.listing!.title}</a>
                <p class="mt-1 text-sm text-slate-700">
                  <span class={item.on === today ? "font-semibold text-red-800" : "font-semibold text-slate-900"}>
                    {when(t, item, today)}
                  </span>
                  {item.kind === "internships" ? ` · ${item.listing!.hiringOrganization}` : ""}
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
      {alerts.length > 0 && (
        <section aria-labelledby="alert-news-heading">
          <div class="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="alert-news-heading" class="text-xl font-bold text-slate-900">{t("home.news.alerts")}</h2>
            <a href="/me/alerts" class="text-sm font-medium text-indigo-700 underline">{t("home.news.yourAlerts")}</a>
          </div>
          <ul class="mt-3 space-y-3">
            {alerts.map((news) => (
              <li key={news.alert.id} class={CARD}>
                <p class="text-sm text-slate-700">
                  <a href={news.href} class="font-semibold text-indigo-800 underline">
                    {t("home.news.newMatches", {
                      count: news.count,
                      more: String(news.more),
                      description: describeAlert(news.alert, t),
                    })}
                  </a>
                </p>
                <ul class="mt-2 space-y-1">
                  {news.items.map((item) => (
                    <li key={item.id}>
                      <a href={item.href} class={LINK}>{item.title}</a>
                      {item.by && <span class="text-sm text-slate-700">{` · ${item.by}`}</span>}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
