/**
 * The demo's suspended account (docs/decisions.md, Admin, "Suspension"): a poster the admin suspended after a scam
 * listing, so `/admin/users` shows the badge, the reason and "Lift suspension". Not a demo login (no password).
 * Suspended through the real write (`suspendUser`: its audit log entry and e-mail too). Idempotent.
 */
import { createUser, getUserByEmail, type User } from "@/lib/users/users.ts";
import { suspendUser } from "@/lib/users/suspension.ts";

/** The suspended account's e-mail address. */
export const SUSPENDED_EMAIL = "vikram@suspended.demo.careers";

/** Makes and suspends the account unless it exists; returns the seed's line about it. */
export async function seedSuspension(
  kv: Deno.Kv,
  { admin, appUrl }: { admin: User; appUrl: string },
): Promise<string[]> {
  if (await getUserByEmail(kv, SUSPENDED_EMAIL)) return [];
  const user = await createUser(kv, {
    name: "Vikram Fastcash",
    email: SUSPENDED_EMAIL,
    emailVerified: true,
    role: "member",
  });
  await suspendUser(kv, {
    actorId: admin.id,
    targetId: user.id,
    reason: "Posted an internship that asked applicants for a ₹2,000 registration fee",
    hideListings: false,
    appUrl,
  });
  return [`Suspended account: ${SUSPENDED_EMAIL} (see /admin/users, "Suspended accounts")`];
}
