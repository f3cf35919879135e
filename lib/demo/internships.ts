/**
 * Demo internships for `deno task seed`: 360 generated listings (fixed seed, so ids repeat and
 * a second run adds nothing) owned by the demo admin, the demo member and two recruiter
 * members created here (without passwords: they only own listings). Their names are names alone: a listing's page adds
 * the poster's role in the reader's language.
 */
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { createUser, getUserByEmail, type User } from "@/lib/users/users.ts";

/** The two recruiter members who own demo listings (the demo makes them managers of the organization it verifies). */
export const RECRUITERS = [
  { name: "Kavya Nair", email: "kavya.recruiter@demo.careers" },
  { name: "Imran Qureshi", email: "imran.recruiter@demo.careers" },
];

/** Number of demo internships. */
export const DEMO_INTERNSHIPS = 360;

/** Seeds the demo internships owned by `owners` plus the recruiters; returns how many were added. */
export async function seedInternships(kv: Deno.Kv, owners: User[]): Promise<number> {
  const recruiters: User[] = [];
  for (const r of RECRUITERS) {
    recruiters.push(
      await getUserByEmail(kv, r.email) ??
        await createUser(kv, { name: r.name, email: r.email, emailVerified: true, role: "member" }),
    );
  }
  const ownerIds = [...owners, ...recruiters].map((u) => u.id);
  return await importInternships(kv, generateInternships(DEMO_INTERNSHIPS, ownerIds, { seed: 2024, withHidden: true }));
}
