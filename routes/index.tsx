/**
 * Home page. A guest sees the pitch and the two next steps (internships, sign-up), the newest public internships
 * (`LATEST_COUNT`, as the first page of `/internships` lists them) and a three-step "how it works". A signed-in person
 * gets a one-line greeting and, on a phone's first screen, what is new for them (docs/decisions.md, Student space, "The
 * home page"): their saved listings closing within a week, the new matches of their alerts, then "For you" (for
 * people other than admins: recommended internships and toolkits with the reasons; docs/decisions.md,
 * Recommendations), then the newest internships.
 */
import { define } from "@/lib/platform/define.ts";
import { canPost } from "@/lib/internships/policy.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import {
  DEFAULT_QUERY,
  internshipsVersion,
  type InternshipView,
  listInternships,
} from "@/lib/internships/internships.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { recommend } from "@/lib/recommendations/recommendations.ts";
import { ForYou, type ForYouProps } from "@/components/ForYou.tsx";
import { StudentNews, type StudentNewsProps } from "@/components/StudentNews.tsx";
import { closingSoon, savedRecordsOf } from "@/lib/saved/saved.ts";
import { alertNews } from "@/lib/alerts/news.ts";
import { istToday } from "@/lib/dates.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import type { User } from "@/lib/users/users.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** How long after sign-up (ms) the home page greets a person as new: a day. */
const NEW_HERE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the greeting is a plain welcome rather than "Welcome back": for someone who just finished onboarding
 * (`?onboarded`) or whose account is less than `NEW_HERE_MS` old.
 */
function isNewHere(user: Pick<User, "createdAt">, url: URL): boolean {
  return url.searchParams.has("onboarded") || Date.now() - Date.parse(user.createdAt) < NEW_HERE_MS;
}

/** How many of the newest internships the home page shows. */
const LATEST_COUNT = 6;

/** How many recommended internships and toolkits the home page shows. */
const FOR_YOU_INTERNSHIPS = 4;
const FOR_YOU_TOOLKITS = 3;

/**
 * The newest public internships, newest first, what is new for a signed-in person (null for guests) and their
 * recommendations (null for guests and admins).
 */
interface HomeData {
  latest: InternshipView[];
  news: StudentNewsProps | null;
  forYou: ForYouProps | null;
}

export const handler = define.handlers<HomeData>({
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    return servePublicPage(req, ctx.state, ctx.url, {
      version: () => internshipsVersion(kv),
      render: async () => {
        const { user } = ctx.state;
        const today = istToday();
        // The saved list is read once, for "Closing soon" and to leave saved listings out of "For you".
        const saved = user ? savedRecordsOf(kv, user.id) : null;
        const [page, news, forYou] = await Promise.all([
          listInternships(kv, { query: { ...DEFAULT_QUERY, limit: LATEST_COUNT }, viewer: null, today }),
          user
            ? Promise.all([
              saved!.then((records) => closingSoon(kv, { records, today })),
              alertNews(kv, { userId: user.id }),
            ])
            : null,
          user && !isAdmin(user)
            ? Promise.all([
              saved!.then((records) =>
                recommend(kv, { user, kind: "internships", limit: FOR_YOU_INTERNSHIPS, today, saved: records })
              ),
              recommend(kv, { user, kind: "toolkits", limit: FOR_YOU_TOOLKITS }),
            ])
            : null,
        ]);
        return ctx.render({
          latest: page.internships,
          news: news && { closing: news[0], alerts: news[1], today },
          forYou: forYou && { internships: forYou[0], toolkits: forYou[1] },
        });
      },
    });
  },
});

/** The steps of "How it works": title, text, and where to take the step. */
function steps(signedIn: boolean): { title: MessageKey; text: MessageKey; href: string; link: MessageKey }[] {
  return [
    { title: "home.how.find.title", text: "home.how.find.text", href: "/internships", link: "home.how.find.link" },
    {
      title: "home.how.profile.title",
      text: "home.how.profile.text",
      href: signedIn ? "/profile" : "/sign-up",
      link: signedIn ? "home.how.profile.edit" : "home.how.profile.create",
    },
    { title: "home.how.apply.title", text: "home.how.apply.text", href: "/internships", link: "home.how.apply.link" },
  ];
}

export default define.page<HomeData>(function Home({ data, state, url }) {
  const t = useT();
  return (
    <div class={state.user ? "space-y-10" : "space-y-16"}>
      {url.searchParams.has("accountDeleted") && !state.user && (
        <Notice kind="success" title={t("home.deleted.title")}>{t("home.deleted.text")}</Notice>
      )}
      <PageHead title={t("home.title")} />
      {state.user
        ? (
          <div class="space-y-6">
            <h1 class="text-2xl font-bold tracking-tight text-slate-900 [overflow-wrap:anywhere]">
              {t(isNewHere(state.user, url) ? "home.welcomeNew" : "home.welcome", { name: state.user.name })}
            </h1>
            {url.searchParams.has("onboarded") && (
              <Notice kind="success" title={t("home.onboarded.title")}>
                {t.rich("home.onboarded.text", {
                  profile: (chunks) => <a href="/profile" class="font-medium underline">{chunks}</a>,
                })}
              </Notice>
            )}
            {data.news && <StudentNews {...data.news} />}
          </div>
        )
        : (
          <section class="pt-4 text-center sm:pt-8">
            <h1 class="text-4xl font-bold tracking-tight">{t("home.hero.title")}</h1>
            <p class="mt-4 text-lg text-slate-700">{t("home.hero.lead")}</p>
            <div class="mt-8 flex flex-wrap justify-center gap-4">
              <a
                href="/internships"
                class="rounded-md bg-indigo-600 px-5 py-3 font-medium text-white hover:bg-indigo-700"
              >
                {t("home.hero.browse")}
              </a>
              <a
                href="/sign-up"
                class="rounded-md border border-slate-300 bg-white px-5 py-3 font-medium hover:bg-slate-100"
              >
                {t("home.hero.signUp")}
              </a>
            </div>
            <p class="mt-6">
              <a href="/contact" class="font-medium text-indigo-700 underline hover:text-indigo-900">
                {t("home.hero.hiring")}
              </a>
            </p>
          </section>
        )}
      {data.forYou && <ForYou {...data.forYou} />}

      <section aria-labelledby="latest-heading">
        <div class="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="latest-heading" class="text-2xl font-bold tracking-tight text-slate-900">
            {t("home.latest.heading")}
          </h2>
          {data.latest.length > 0 && (
            <a href="/internships" class="font-medium text-indigo-700 underline hover:text-indigo-900">
              {t("home.latest.all")}
            </a>
          )}
        </div>
        {data.latest.length > 0
          ? (
            <ul class="mt-6 grid gap-4 lg:grid-cols-2">
              {data.latest.map((internship) => (
                <li key={internship.id} class="*:h-full">
                  <InternshipCard internship={internship} signedIn={Boolean(state.user)} />
                </li>
              ))}
            </ul>
          )
          : (
            <div class="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
              <p class="font-medium text-slate-900">{t("home.latest.none")}</p>
              <p class="mt-1 text-slate-700">{t("home.latest.noneHint")}</p>
              {canPost(state.user) && (
                <a href="/internships/new" class="mt-3 inline-block text-indigo-700 underline hover:text-indigo-900">
                  {t("home.latest.postFirst")}
                </a>
              )}
            </div>
          )}
      </section>

      <section aria-labelledby="how-heading">
        <h2 id="how-heading" class="text-2xl font-bold tracking-tight text-slate-900">{t("home.how.heading")}</h2>
        <ol class="mt-6 grid gap-4 md:grid-cols-3">
          {steps(Boolean(state.user)).map((step, i) => (
            <li key={step.title} class="flex gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <span
                aria-hidden="true"
                class="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-indigo-50 font-semibold text-indigo-800 ring-1 ring-inset ring-indigo-200"
              >
                {i + 1}
              </span>
              <div>
                <h3 class="font-semibold text-slate-900">{t(step.title)}</h3>
                <p class="mt-1 text-sm text-slate-700">{t(step.text)}</p>
                <a href={step.href} class="mt-2 inline-block text-sm font-medium text-indigo-700 underline">
                  {t(step.link)}
                </a>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
});
