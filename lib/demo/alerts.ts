/**
 * Demo alerts (docs/decisions.md, Alerts): Sara watches data internships in Bengaluru daily and hackathons weekly;
 * Rohan watches finance internships in Pune. Added only for a person who has no alerts yet, so seeding twice adds
 * nothing. (Sara's rejected opportunity already brought her a notification; both students' onboarding answers feed
 * their "For you".)
 */
import { type AlertCreate, createAlert, listAlerts } from "@/lib/alerts/alerts.ts";
import type { User } from "@/lib/users/users.ts";

const ALERTS: Record<string, AlertCreate[]> = {
  "sara@demo.careers": [
    { kind: "internships", query: { search: "data", location: "Bengaluru" }, frequency: "daily" },
    { kind: "opportunities", query: { type: "hackathon" }, frequency: "weekly" },
  ],
  "rohan@demo.careers": [{ kind: "internships", query: { search: "finance", location: "Pune" }, frequency: "daily" }],
};

/** Adds the demo alerts of the accounts in `accounts` (by e-mail) that have none; returns a line saying what it did. */
export async function seedAlerts(kv: Deno.Kv, accounts: Map<string, User>): Promise<string[]> {
  let added = 0;
  for (const [email, alerts] of Object.entries(ALERTS)) {
    const user = accounts.get(email);
    if (!user || (await listAlerts(kv, user.id)).length > 0) continue;
    for (const alert of alerts) {
      await createAlert(kv, { userId: user.id, input: alert });
      added++;
    }
  }
  return [`Alerts: ${added} added`];
}
