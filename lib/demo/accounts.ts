/** Demo accounts for `deno task seed`: an admin, a member and two students, all verified. */
import { hashPassword } from "@/lib/auth/passwords.ts";
import { createUser, getUserByEmail, type Role, type User } from "@/lib/users/users.ts";

/** The demo accounts with their passwords (printed by the seed script). */
export const DEMO_ACCOUNTS: { name: string; email: string; password: string; role: Role }[] = [
  { name: "Asha Admin", email: "admin@demo.careers", password: "demo-admin-123", role: "admin" },
  { name: "Mihir Member", email: "member@demo.careers", password: "demo-member-123", role: "member" },
  { name: "Sara Student", email: "sara@demo.careers", password: "demo-student-123", role: "user" },
  { name: "Rohan Student", email: "rohan@demo.careers", password: "demo-student-123", role: "user" },
];

/** Creates the demo accounts that do not exist yet; returns all of them by e-mail. */
export async function seedAccounts(kv: Deno.Kv): Promise<Map<string, User>> {
  const users = new Map<string, User>();
  for (const account of DEMO_ACCOUNTS) {
    const existing = await getUserByEmail(kv, account.email);
    const user = existing ?? await createUser(kv, {
      name: account.name,
      email: account.email,
      emailVerified: true,
      role: account.role,
      passwordHash: await hashPassword(account.password),
    });
    users.set(account.email, user);
  }
  return users;
}
