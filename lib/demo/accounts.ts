/**
 * Demo accounts for `deno task seed`: an admin, a member and three students, all verified. All
 * but one have finished onboarding, so signing in goes straight to the site; the new student
 * (`new@demo.careers`) has not, and signing in as them shows onboarding.
 */
import { hashPassword } from "@/lib/auth/passwords.ts";
import { getOnboardingProfile, type OnboardingInput, saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { createUser, getUserByEmail, type Role, type User } from "@/lib/users/users.ts";

/** A demo account: its sign-in, and its onboarding answers (null: not onboarded yet). */
export interface DemoAccount {
  name: string;
  email: string;
  password: string;
  role: Role;
  onboarding: OnboardingInput | null;
}

const student = (locationValue: string, fieldOfStudy: string, domainPreferences: string[]): OnboardingInput => ({
  persona: "student",
  locationType: "city",
  locationValue,
  educationLevel: "Undergraduate",
  fieldOfStudy,
  opportunityInterests: ["internships", "hackathons"],
  domainPreferences,
  struggles: ["Finding opportunities"],
});

/** The demo accounts with their passwords (printed by the seed script and listed in the README). */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    name: "Asha Admin",
    email: "admin@demo.careers",
    password: "demo-admin-123",
    role: "admin",
    onboarding: { persona: "society" },
  },
  {
    name: "Mihir Member",
    email: "member@demo.careers",
    password: "demo-member-123",
    role: "member",
    onboarding: { persona: "society" },
  },
  {
    name: "Sara Student",
    email: "sara@demo.careers",
    password: "demo-student-123",
    role: "user",
    onboarding: student("Bengaluru", "Computer Science", ["Software development", "Data & AI"]),
  },
  {
    name: "Rohan Student",
    email: "rohan@demo.careers",
    password: "demo-student-123",
    role: "user",
    onboarding: student("Pune", "Commerce", ["Finance", "Marketing"]),
  },
  { name: "Nisha New", email: "new@demo.careers", password: "demo-student-123", role: "user", onboarding: null },
];

/**
 * Creates the demo accounts that do not exist yet and saves the onboarding of those that have
 * answers and no onboarding profile yet; returns all of them by e-mail.
 */
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
    if (account.onboarding && !(await getOnboardingProfile(kv, user.id))) {
      await saveOnboardingProfile(kv, user.id, account.onboarding);
    }
    users.set(account.email, user);
  }
  return users;
}
