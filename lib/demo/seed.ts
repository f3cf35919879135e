/**
 * The demo data set (`deno task seed`): idempotent, so running it again adds nothing twice.
 * Each capability adds its part here.
 */
import { DEMO_ACCOUNTS, seedAccounts } from "./accounts.ts";
import { seedHindiInternships, seedInternships } from "./internships.ts";
import { seedOpportunities } from "./opportunities.ts";
import { seedToolkits } from "./toolkits.ts";
import { seedUngatekeep } from "./ungatekeep.ts";
import { seedDiscussion } from "./comments.ts";
import { seedAlerts } from "./alerts.ts";
import { seedSaved } from "./saved.ts";
import { seedOutbox } from "./outbox.ts";
import { seedMoney } from "./money.ts";
import { seedMonth } from "./history.ts";
import { seedTrust } from "./trust.ts";
import { seedApplications } from "./applications.ts";
import { seedSuspension } from "./suspension.ts";
import type { SellerConfig } from "@/lib/purchases/receipts.ts";

/**
 * Loads the demo data into `kv`; returns lines describing what is there. `appUrl` is the origin of links in the e-mails
 * the demo queues (reply, receipt and refund e-mails); `seller` (the configuration's `SELLER_*`) issues the receipts
 * and is kept with them as checkout keeps it, so with a GSTIN they are tax invoices and their refunds issue credit notes
 * (docs/decisions.md, Money operations, "Credit notes").
 */
export async function seedDemoData(
  kv: Deno.Kv,
  appUrl = "http://localhost:8000",
  seller?: SellerConfig,
): Promise<string[]> {
  const accounts = await seedAccounts(kv);
  const internshipOwners = [...accounts.values()].filter((u) => u.role === "admin" || u.role === "member");
  const newInternships = await seedInternships(kv, internshipOwners);
  const hindiLines = await seedHindiInternships(kv, accounts.get("member@demo.careers")!);
  const opportunityLines = await seedOpportunities(kv, internshipOwners, [
    accounts.get("sara@demo.careers")!,
    accounts.get("rohan@demo.careers")!,
  ]);
  const trustLines = await seedTrust(kv, {
    member: accounts.get("member@demo.careers")!,
    students: [accounts.get("sara@demo.careers")!, accounts.get("rohan@demo.careers")!],
  });
  const toolkitLines = await seedToolkits(kv, accounts.get("admin@demo.careers")!, accounts.get("sara@demo.careers")!);
  const ungatekeepLines = await seedUngatekeep(kv, accounts.get("admin@demo.careers")!);
  const commentLines = await seedDiscussion(kv, accounts, appUrl);
  const alertLines = await seedAlerts(kv, accounts);
  const savedLines = await seedSaved(kv, accounts.get("sara@demo.careers")!);
  // After the tracker: applying adds to it, and the demo tracker is made only when it is empty.
  const applicationLines = await seedApplications(kv, {
    poster: accounts.get("member@demo.careers")!,
    students: [accounts.get("sara@demo.careers")!, accounts.get("rohan@demo.careers")!],
    appUrl,
  });
  const outboxLines = await seedOutbox(kv, accounts, appUrl);
  // The month before the purchases of today, so receipt numbers follow the dates.
  const monthLines = await seedMonth(kv, { appUrl, seller, admin: accounts.get("admin@demo.careers")! });
  const suspensionLines = await seedSuspension(kv, { admin: accounts.get("admin@demo.careers")!, appUrl });
  const moneyLines = await seedMoney(kv, { appUrl, seller }, {
    admin: accounts.get("admin@demo.careers")!,
    learner: accounts.get("rohan@demo.careers")!,
    refunded: accounts.get("sara@demo.careers")!,
  });
  return [
    `Internships: ${newInternships} added`,
    ...hindiLines,
    ...opportunityLines,
    ...trustLines,
    ...applicationLines,
    ...toolkitLines,
    ...ungatekeepLines,
    ...commentLines,
    ...alertLines,
    ...savedLines,
    ...outboxLines,
    ...monthLines,
    ...moneyLines,
    ...suspensionLines,
    "Demo accounts (e-mail / password / role):",
    ...DEMO_ACCOUNTS.map((a) =>
      `  ${a.email.padEnd(22)} ${a.password.padEnd(18)} ${a.role}${a.onboarding ? "" : " (not onboarded yet)"}`
    ),
  ];
}
