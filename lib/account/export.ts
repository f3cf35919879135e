/**
 * A person's data export (`GET /api/me/export`; docs/decisions.md, Data rights): everything kept about them, as one
 * JSON document, gathered section by section. Each domain that keeps records about a person adds its section to
 * `EXPORT_SECTIONS` (the export test builds an account with a record of every kind and checks each appears).
 * Never exported: password hashes, session and e-mail tokens, API keys themselves, payment gateway secrets.
 */
import { sessionsOf } from "@/lib/auth/sessions.ts";
import { knownDevicesOf } from "@/lib/auth/known_devices.ts";
import { signInMethods } from "@/lib/auth/sign_in_methods.ts";
import { apiKeysCreatedBy } from "@/lib/api_keys/api_keys.ts";
import { internshipCountOwnedBy, internshipsOwnedBy } from "@/lib/internships/internships.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { opportunitiesOwnedBy, opportunityCountOwnedBy } from "@/lib/opportunities/opportunities.ts";
import { completedByToolkit } from "@/lib/toolkits/progress.ts";
import { allToolkitIds, toolkitsCreatedBy } from "@/lib/toolkits/catalog.ts";
import { purchaseHistory } from "@/lib/toolkits/learning.ts";
import { buyerMoneyRecords, listPurchaseRecords, type PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { postCountBy, postsBy } from "@/lib/ungatekeep/posts.ts";
import type { User } from "@/lib/users/users.ts";
import { savedForExport, savedRecordsOf } from "@/lib/saved/saved.ts";
import { notificationCountOf, notificationsOf } from "@/lib/notifications/notifications.ts";
import { getSettings } from "@/lib/settings/settings.ts";
import { subscriptionsOf, subscriptionView } from "@/lib/push/subscriptions.ts";
import { listAlerts } from "@/lib/alerts/alerts.ts";
import { commentCountOf, commentsOf, reactionsOf } from "@/lib/comments/store.ts";
import { mailsOfUser } from "@/lib/mail/outbox.ts";
import { organizationsManagedBy } from "@/lib/organizations/organizations.ts";
import { claimsOf } from "@/lib/organizations/claims.ts";
import { getResume } from "@/lib/resumes/resumes.ts";
import { exportedApplications } from "@/lib/applications/applications.ts";
import { reportCountBy, reportsForExport } from "@/lib/reports/reports.ts";
import { adminLogOf } from "@/lib/admin_log/admin_log.ts";
import { istDayOf } from "@/lib/dates.ts";

/**
 * What a purchase `record` keeps of its buyer's checkout and money beyond the purchase as the API shows it: when it was
 * paid, the list price and discount of the order that set the price (paise), the coupon code, `checkoutState` (the state
 * the buyer typed at checkout, null when none was; named apart from the receipt's `buyerState`, the buyer's state the
 * receipt was issued with, which may have come from onboarding: docs/decisions.md, Data rights, "Export"), and the
 * receipt (null where not kept); its history of statuses, extra payments (money owed back) and parts refunded at the
 * gateway, as the buyer may read them (`buyerMoneyRecords`).
 */
function checkoutOf(record: PurchaseRecord | undefined) {
  return {
    ...record ? buyerMoneyRecords(record) : { history: [], extraPayments: [], gatewayPartialRefunds: [] },
    paidAt: record?.paidAt ?? null,
    listPricePaise: record?.listPricePaise ?? null,
    discountPaise: record?.discountPaise ?? null,
    couponCode: record?.couponCode ?? null,
    checkoutState: record?.buyerState ?? null,
    receipt: record?.receipt ?? null,
  };
}

/**
 * One section of the export: its name (the key in the document), how it is gathered for `user`, and, for a section
 * that may hold many or large records, how many records `collect` gives, counted without reading them (index entries;
 * "Your data" shows the count: docs/decisions.md, Data rights, "Read by person"). A section without `count` is
 * collected to be counted.
 */
export interface ExportSection {
  name: string;
  collect(kv: Deno.Kv, user: User): Promise<unknown>;
  count?(kv: Deno.Kv, user: User): Promise<number>;
}

/** The sections, in the order the document lists them. */
export const EXPORT_SECTIONS: ExportSection[] = [
  { name: "user", collect: (_kv, user) => Promise.resolve(user) },
  { name: "onboarding", collect: (kv, user) => getOnboardingProfile(kv, user.id) },
  { name: "signInMethods", collect: (kv, user) => signInMethods(kv, user.id) },
  { name: "sessions", collect: (kv, user) => sessionsOf(kv, user.id) },
  { name: "knownDevices", collect: (kv, user) => knownDevicesOf(kv, user.id) },
  {
    name: "purchases",
    async collect(kv, user) {
      const records = new Map((await listPurchaseRecords(kv, user.id)).map((r) => [r.id, r]));
      return (await purchaseHistory(kv, user.id)).map((p) => ({ ...p, ...checkoutOf(records.get(p.id)) }));
    },
  },
  { name: "certificates", collect: (kv, user) => certificatesOf(kv, user.id) },
  {
    name: "progress",
    async collect(kv, user) {
      const completed = await completedByToolkit(kv, user.id, await allToolkitIds(kv));
      return [...completed].filter(([, ids]) => ids.length > 0)
        .map(([toolkitId, completedItemIds]) => ({ toolkitId, completedItemIds }));
    },
  },
  {
    name: "internships",
    collect: (kv, user) => internshipsOwnedBy(kv, user.id),
    count: (kv, user) => internshipCountOwnedBy(kv, user.id),
  },
  {
    name: "opportunities",
    collect: (kv, user) => opportunitiesOwnedBy(kv, user.id),
    count: (kv, user) => opportunityCountOwnedBy(kv, user.id),
  },
  { name: "posts", collect: (kv, user) => postsBy(kv, user.id), count: (kv, user) => postCountBy(kv, user.id) },
  { name: "toolkits", collect: (kv, user) => toolkitsCreatedBy(kv, user.id) },
  { name: "apiKeys", collect: (kv, user) => apiKeysCreatedBy(kv, user.id) },
  {
    name: "saved",
    collect: (kv, user) => savedForExport(kv, user.id),
    count: async (kv, user) => (await savedRecordsOf(kv, user.id)).length,
  },
  { name: "settings", collect: (kv, user) => getSettings(kv, user.id) },
  {
    name: "pushSubscriptions",
    collect: async (kv, user) => (await subscriptionsOf(kv, user.id)).map(subscriptionView),
  },
  { name: "alerts", collect: (kv, user) => listAlerts(kv, user.id) },
  {
    name: "notifications",
    collect: (kv, user) => notificationsOf(kv, user),
    count: (kv, user) => notificationCountOf(kv, user.id),
  },
  {
    name: "comments",
    collect: (kv, user) => commentsOf(kv, user.id),
    count: (kv, user) => commentCountOf(kv, user.id),
  },
  { name: "reactions", collect: (kv, user) => reactionsOf(kv, user.id) },
  { name: "mails", collect: (kv, user) => mailsOfUser(kv, user.id) },
  { name: "organizationsManaged", collect: (kv, user) => organizationsManagedBy(kv, user.id) },
  { name: "organizationClaims", collect: (kv, user) => claimsOf(kv, user.id) },
  { name: "resume", collect: (kv, user) => getResume(kv, user.id) },
  { name: "applications", collect: (kv, user) => exportedApplications(kv, user.id) },
  {
    name: "reports",
    collect: (kv, user) => reportsForExport(kv, user),
    count: (kv, user) => reportCountBy(kv, user.id),
  },
  { name: "adminLog", collect: (kv, user) => adminLogOf(kv, user.id) },
];

/** The export document: when it was made, then every section by name. */
export type AccountExport = { exportedAt: string } & Record<string, unknown>;

/**
 * The export file's name for an export made at `exportedAt` (ISO): dated by the day in India, as the person reads the
 * date, e.g. `career-community-data-2026-11-28.json` for 27 Nov 20:00 UTC.
 */
export function exportFileName(exportedAt: string): string {
  return `career-community-data-${istDayOf(exportedAt)}.json`;
}

/** Everything kept about `user`, section by section. */
export async function exportAccount(kv: Deno.Kv, user: User): Promise<AccountExport> {
  const values = await Promise.all(EXPORT_SECTIONS.map((section) => section.collect(kv, user)));
  return {
    exportedAt: new Date().toISOString(),
    ...Object.fromEntries(EXPORT_SECTIONS.map((s, i) => [s.name, values[i]])),
  };
}
