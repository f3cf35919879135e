/**
 * What is new for a person's alerts, for the signed-in home page (docs/decisions.md, Student space, "The home page"):
 * the listings created in the last `NEWS_DAYS` days, and at or after the alert's creation (its own millisecond
 * included, each listing counted once), that match each of their active alerts, newest first, as the list pages find
 * them. The newest `ALERTS_SHOWN` active alerts are read (a filtered list page each: a few milliseconds), each with at
 * most `PER_ALERT` listings shown and a count up to `COUNTED`.
 */
import { istToday } from "@/lib/dates.ts";
import { InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { newOpportunities, OpportunityQuerySchema } from "@/lib/opportunities/opportunities.ts";
import { type Alert, listAlerts, queryParams } from "./alerts.ts";

/** How far back a listing counts as new (days). */
export const NEWS_DAYS = 7;
/** How many active alerts are read, newest first. */
export const ALERTS_SHOWN = 5;
/** How many listings of one alert are shown. */
export const PER_ALERT = 3;
/** How many new listings of one alert are counted at most ("20+"). */
export const COUNTED = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A new listing as the home page lists it: its title, where it leads, and who posts it. */
export interface NewsItem {
  id: string;
  title: string;
  href: string;
  by: string | null;
}

/**
 * One alert's news: the alert (a page words it in its reader's language, `describeAlert`), its list page, the newest
 * matches and how many there are.
 */
export interface AlertNews {
  alert: Alert;
  /** The list page with the alert's filters. */
  href: string;
  items: NewsItem[];
  /** New matches counted, at most `COUNTED`; `more` when there may be more. */
  count: number;
  more: boolean;
}

/** The news of `userId`'s active alerts at `now` (see the module docstring); alerts with nothing new are left out. */
export async function alertNews(kv: Deno.Kv, { userId, now = new Date() }: { userId: string; now?: Date }) {
  const alerts = (await listAlerts(kv, userId)).filter((alert) => alert.isActive).slice(0, ALERTS_SHOWN);
  const today = istToday(now);
  const news = await Promise.all(alerts.map(async (alert): Promise<AlertNews | null> => {
    // Windows are open at their start (`newOpportunities`' `after`, as the digest tiles them): one ms before the alert's
    // own counts a listing made in its millisecond, which its page could not have shown; one made earlier stays out.
    const after = Math.max(Date.parse(alert.createdAt) - 1, now.getTime() - NEWS_DAYS * DAY_MS);
    const params = queryParams(alert.query);
    const href = `/${alert.kind}?${new URLSearchParams(params)}`.replace(/\?$/, "");
    let found: NewsItem[];
    if (alert.kind === "internships") {
      const query = InternshipQuerySchema.parse({ ...params, limit: String(COUNTED) });
      found = (await listInternships(kv, { query, viewer: null, today })).internships
        .filter((listing) => Date.parse(listing.createdAt) > after)
        .map((i) => ({ id: i.id, title: i.title, href: `/internships/${i.id}`, by: i.hiringOrganization }));
    } else {
      const query = OpportunityQuerySchema.parse(params);
      found = (await newOpportunities(kv, { after, until: now.getTime(), today })).matching(query).slice(0, COUNTED)
        .map((o) => ({ id: o.id, title: o.title, href: `/opportunities/${o.id}`, by: o.organizer ?? null }));
    }
    if (found.length === 0) return null;
    return {
      alert,
      href,
      items: found.slice(0, PER_ALERT),
      count: found.length,
      more: found.length === COUNTED,
    };
  }));
  return news.filter((item) => item !== null);
}
