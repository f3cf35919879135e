/**
 * The readable summary of a person's data export, for `/me/data` (docs/decisions.md, Data rights, "Your data page"):
 * the account, the résumé, each application and purchase by title, and how many records of every other kind the
 * export holds. Built from the export's own sections (`EXPORT_SECTIONS`), so the page shows what the download holds and
 * nothing else: the sections it details are collected as the export collects them, the others counted by their
 * `count` (index entries, not records) where they have one, else collected and counted.
 */
import { EXPORT_SECTIONS } from "@/lib/account/export.ts";
import type { MyApplication } from "@/lib/applications/schema.ts";
import type { ApplicationStatus } from "@/lib/applications/schema.ts";
import type { PurchaseHistoryItem } from "@/lib/toolkits/learning.ts";
import type { PaymentStatus } from "@/lib/purchases/purchases.ts";
import type { Resume } from "@/lib/resumes/resumes.ts";
import type { SignInMethod } from "@/lib/auth/sign_in_methods.ts";
import type { User } from "@/lib/users/users.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The sections the page shows one by one (the rest are counted). */
export const DETAILED_SECTIONS = [
  "user",
  "onboarding",
  "settings",
  "signInMethods",
  "resume",
  "applications",
  "purchases",
] as const;

/** The sections the page counts, each with its label, in the page's order. */
export const COUNTED_SECTIONS: readonly { name: string; label: MessageKey }[] = [
  { name: "saved", label: "me.data.count.saved" },
  { name: "alerts", label: "me.data.count.alerts" },
  { name: "notifications", label: "me.data.count.notifications" },
  { name: "mails", label: "me.data.count.mails" },
  { name: "certificates", label: "me.data.count.certificates" },
  { name: "progress", label: "me.data.count.progress" },
  { name: "posts", label: "me.data.count.posts" },
  { name: "comments", label: "me.data.count.comments" },
  { name: "reactions", label: "me.data.count.reactions" },
  { name: "reports", label: "me.data.count.reports" },
  { name: "internships", label: "me.data.count.internships" },
  { name: "opportunities", label: "me.data.count.opportunities" },
  { name: "toolkits", label: "me.data.count.toolkits" },
  { name: "organizationsManaged", label: "me.data.count.organizationsManaged" },
  { name: "organizationClaims", label: "me.data.count.organizationClaims" },
  { name: "sessions", label: "me.data.count.sessions" },
  { name: "knownDevices", label: "me.data.count.knownDevices" },
  { name: "pushSubscriptions", label: "me.data.count.pushSubscriptions" },
  { name: "apiKeys", label: "me.data.count.apiKeys" },
  { name: "adminLog", label: "me.data.count.adminLog" },
];

/** The summary the page renders. Amounts are paise; times ISO 8601. */
export interface DataSummary {
  account: Pick<User, "name" | "email" | "createdAt" | "emailVerified" | "collegeInstitute" | "contactNumber"> & {
    /** Whether onboarding answers are kept. */
    onboarded: boolean;
    signInMethods: SignInMethod[];
  };
  resume: Resume | null;
  applications: { id: string; title: string | null; status: ApplicationStatus; createdAt: string }[];
  purchases: {
    id: string;
    title: string | null;
    amountPaid: number;
    paymentStatus: PaymentStatus;
    createdAt: string;
    receiptUrl: string | null;
  }[];
  /** Every counted section with how many records it holds (a single record counts 1, none 0). */
  counts: { name: string; label: MessageKey; count: number }[];
}

/** How many records a section's value holds. */
function countOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value === null || value === undefined ? 0 : 1;
}

/** How many records the export's section `name` holds for `user`: its `count`, else its records counted. */
async function sectionCount(kv: Deno.Kv, user: User, name: string): Promise<number> {
  const section = EXPORT_SECTIONS.find((s) => s.name === name)!;
  return section.count ? await section.count(kv, user) : countOf(await section.collect(kv, user));
}

/**
 * The summary of `user`'s export: the detailed sections collected (`DETAILED_SECTIONS`), the others counted
 * (`sectionCount`), all at once.
 */
export async function dataSummary(kv: Deno.Kv, user: User): Promise<DataSummary> {
  const [detailed, counted] = await Promise.all([
    Promise.all(DETAILED_SECTIONS.map((name) => EXPORT_SECTIONS.find((s) => s.name === name)!.collect(kv, user))),
    Promise.all(COUNTED_SECTIONS.map(({ name }) => sectionCount(kv, user, name))),
  ]);
  const data: Record<string, unknown> = Object.fromEntries(DETAILED_SECTIONS.map((name, i) => [name, detailed[i]]));
  const applications = data.applications as MyApplication[];
  const purchases = data.purchases as PurchaseHistoryItem[];
  return {
    account: {
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      createdAt: user.createdAt,
      collegeInstitute: user.collegeInstitute,
      contactNumber: user.contactNumber,
      onboarded: data.onboarding !== null && data.onboarding !== undefined,
      signInMethods: data.signInMethods as SignInMethod[],
    },
    resume: (data.resume as Resume | null) ?? null,
    applications: applications.map((a) => ({
      id: a.id,
      title: a.internship?.title ?? null,
      status: a.status,
      createdAt: a.createdAt,
    })),
    purchases: purchases.map((p) => ({
      id: p.id,
      title: p.toolkit?.title ?? null,
      amountPaid: p.amountPaid,
      paymentStatus: p.paymentStatus,
      createdAt: p.createdAt,
      receiptUrl: p.receiptUrl,
    })),
    counts: COUNTED_SECTIONS.map(({ name, label }, i) => ({ name, label, count: counted[i] })),
  };
}
