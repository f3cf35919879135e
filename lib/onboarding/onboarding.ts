/**
 * Onboarding profiles (docs/api.md, Profile and onboarding, "Onboarding"; docs/decisions.md, Profile and onboarding).
 *
 * Keys (owned by this module only): `["onboarding_profiles", userId]` → `OnboardingProfile`, one
 * per user.
 *
 * Rules:
 * - `persona` is required: `student` or `society`, else 400 `{error: "Invalid persona"}`.
 * - For `society` the student-only fields are stored as `null`/`[]`; whatever the body holds for
 *   them is ignored (a form switched from student to society may still send them).
 * - For `student`: `locationType` is `city` or `state`; text is trimmed, at most 100 characters,
 *   blank means unset; arrays hold at most 20 items of 1–100 characters.
 * - The API reference (docs/api.md) leaves the allowed values of `educationLevel` and `fieldOfStudy` open; we
 *   accept exactly the values of `EDUCATION_LEVELS` and `FIELDS_OF_STUDY` (the choices the
 *   onboarding page offers), so stored values are always ones the UI can show. The array fields
 *   are checked for shape only: the page offers `OPPORTUNITY_INTERESTS`, `DOMAIN_PREFERENCES` and
 *   `STRUGGLES`, and other values are kept as given.
 * - `fieldOther` is required when `fieldOfStudy` is `Other` and stored as `null` otherwise.
 * - Errors are 400 `{error: "Invalid <field>"}` naming the first invalid field in request order.
 * - A `POST` replaces the whole profile (absent fields become `null`/`[]`), keeping `id` and
 *   `createdAt` of an existing one.
 * - Saving fills the profile's empty `opportunityInterests` and `fieldInterests` from the
 *   answers (`opportunityInterests`, `domainPreferences`); filled ones are kept.
 *
 * New-user detection (docs/api.md, Authentication): a user whose `createdAt` equals
 * `updatedAt`, or who has no onboarding profile, is sent to onboarding. Saving an onboarding
 * profile therefore also moves the user's `updatedAt`.
 */
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { fieldProblem, PARSE_WITH_INPUT, type Sentence } from "@/lib/field_messages.ts";
import { clearableText, invalidFieldError, textList } from "@/lib/users/profile.ts";
import { updateUser, updateUserOps, type User, type UserPatch } from "@/lib/users/users.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** The personas onboarding offers (docs/api.md, Profile and onboarding). */
export const PERSONAS = ["student", "society"] as const;
export type Persona = typeof PERSONAS[number];

/** How a student states their location. */
export const LOCATION_TYPES = ["city", "state"] as const;

/** Allowed `educationLevel` values. */
export const EDUCATION_LEVELS = ["High school", "Undergraduate", "Postgraduate", "PhD", "Graduate / working"] as const;

/** Allowed `fieldOfStudy` values; `Other` needs `fieldOther`. */
export const FIELDS_OF_STUDY = [
  "Engineering",
  "Computer Science",
  "Design",
  "Business",
  "Commerce",
  "Arts & Humanities",
  "Science",
  "Law",
  "Medicine",
  "Other",
] as const;

/** `opportunityInterests` choices the onboarding page offers. */
export const OPPORTUNITY_INTERESTS = [
  "internships",
  "hackathons",
  "grants",
  "competitions",
  "ideathons",
  "jobs",
] as const;

/** `domainPreferences` choices the onboarding page offers. */
export const DOMAIN_PREFERENCES = [
  "Software development",
  "Data & AI",
  "Product management",
  "Design",
  "Marketing",
  "Finance",
  "Consulting",
  "Research",
  "Entrepreneurship",
  "Social impact",
] as const;

/** `struggles` choices the onboarding page offers. */
export const STRUGGLES = [
  "Finding opportunities",
  "Building a resume",
  "Preparing for interviews",
  "Networking",
  "Choosing a career path",
  "Learning new skills",
  "Getting referrals",
] as const;

/** Largest length of an onboarding text field, in characters. */
export const ONBOARDING_TEXT_MAX = 100;

/** An onboarding profile as stored and returned (`{profile}`). */
export interface OnboardingProfile {
  id: string;
  userId: string;
  persona: Persona;
  locationType: typeof LOCATION_TYPES[number] | null;
  locationValue: string | null;
  educationLevel: string | null;
  fieldOfStudy: string | null;
  fieldOther: string | null;
  opportunityInterests: string[];
  domainPreferences: string[];
  struggles: string[];
  createdAt: string;
  updatedAt: string;
}

const oneOf = (values: readonly string[]) =>
  clearableText(ONBOARDING_TEXT_MAX, (text) => values.includes(text), { enum: values });

/** Schema of the student-only fields of `POST /api/onboarding`, in the order errors are reported. */
export const studentOnboardingSchema = z.object({
  locationType: oneOf(LOCATION_TYPES),
  locationValue: clearableText(ONBOARDING_TEXT_MAX),
  educationLevel: oneOf(EDUCATION_LEVELS),
  fieldOfStudy: oneOf(FIELDS_OF_STUDY),
  fieldOther: clearableText(ONBOARDING_TEXT_MAX),
  opportunityInterests: textList(),
  domainPreferences: textList(),
  struggles: textList(),
}).refine((fields) => fields.fieldOfStudy !== "Other" || typeof fields.fieldOther === "string", {
  path: ["fieldOther"],
  when: () => true,
});

const STUDENT_FIELDS = ["persona", ...Object.keys(studentOnboardingSchema.shape)];

/** The sentence beside each onboarding answer that is not valid. */
const ONBOARDING_MESSAGES: Record<string, Sentence> = {
  persona: { key: "profile.problem.persona" },
  locationType: { key: "profile.problem.locationType" },
  locationValue: { key: "profile.problem.locationValue", values: { max: ONBOARDING_TEXT_MAX } },
  educationLevel: { key: "profile.problem.educationLevel" },
  fieldOfStudy: { key: "profile.problem.fieldOfStudy" },
  fieldOther: { key: "profile.problem.fieldOther", values: { max: ONBOARDING_TEXT_MAX } },
  opportunityInterests: { key: "profile.problem.chooseAtMost", values: { max: 20 } },
  domainPreferences: { key: "profile.problem.chooseAtMost", values: { max: 20 } },
  struggles: { key: "profile.problem.chooseAtMost", values: { max: 20 } },
};

/** A validated onboarding body. */
export type OnboardingInput =
  | { persona: "society" }
  | { persona: "student" } & z.infer<typeof studentOnboardingSchema>;

/**
 * Validates a `POST /api/onboarding` body.
 * @throws InvalidInputError "Invalid persona", or `Invalid <field>` for the first invalid student field;
 *   its `fields` list every invalid answer with a sentence.
 */
export function parseOnboarding(body: unknown): OnboardingInput {
  const record = typeof body === "object" && body !== null && !Array.isArray(body)
    ? body as Record<string, unknown>
    : {};
  const persona = z.enum(PERSONAS).safeParse(record.persona);
  if (!persona.success) {
    throw new InvalidInputError("Invalid persona", [fieldProblem("persona", ONBOARDING_MESSAGES.persona)]);
  }
  if (persona.data === "society") return { persona: "society" };
  const result = studentOnboardingSchema.safeParse(record, PARSE_WITH_INPUT);
  if (!result.success) throw invalidFieldError(result.error.issues, STUDENT_FIELDS, ONBOARDING_MESSAGES);
  return { persona: "student", ...result.data };
}

/** The onboarding profile of a user, or null when onboarding is not completed. */
export async function getOnboardingProfile(kv: Deno.Kv, userId: string): Promise<OnboardingProfile | null> {
  return (await kv.get<OnboardingProfile>(["onboarding_profiles", userId])).value;
}

/** Adds to `op` the deletion of a user's onboarding profile (account deletion, with the user in one write). */
export function deleteOnboardingOps(op: Deno.AtomicOperation, userId: string): void {
  op.delete(["onboarding_profiles", userId]);
}

function fieldsOf(input: OnboardingInput) {
  if (input.persona === "society") {
    return {
      locationType: null,
      locationValue: null,
      educationLevel: null,
      fieldOfStudy: null,
      fieldOther: null,
      opportunityInterests: [],
      domainPreferences: [],
      struggles: [],
    };
  }
  return {
    locationType: (input.locationType ?? null) as OnboardingProfile["locationType"],
    locationValue: input.locationValue ?? null,
    educationLevel: input.educationLevel ?? null,
    fieldOfStudy: input.fieldOfStudy ?? null,
    fieldOther: input.fieldOfStudy === "Other" ? input.fieldOther ?? null : null,
    opportunityInterests: input.opportunityInterests ?? [],
    domainPreferences: input.domainPreferences ?? [],
    struggles: input.struggles ?? [],
  };
}

/**
 * Moves the user's `updatedAt` away from `createdAt`, waiting out the millisecond of creation
 * when the user was created just now.
 */
async function markNotNew(kv: Deno.Kv, userId: string): Promise<void> {
  for (;;) {
    const user = await updateUser(kv, userId, {});
    if (user.updatedAt !== user.createdAt) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * Marks the user as no longer new by moving their `updatedAt`, then creates or replaces their
 * onboarding profile (keeping `id` and `createdAt`), retrying on a concurrent write. In the same
 * atomic write, the profile's `opportunityInterests` and `fieldInterests` that are still empty
 * take the onboarding's `opportunityInterests` and `domainPreferences` (the profile offers the
 * same choices), so the answers show on the profile at once; filled ones are left alone.
 * @throws NotFoundError "User not found" when the user does not exist.
 */
export async function saveOnboardingProfile(
  kv: Deno.Kv,
  userId: string,
  input: OnboardingInput,
): Promise<OnboardingProfile> {
  await markNotNew(kv, userId);
  for (;;) {
    const [entry, userEntry] = await kv.getMany<[OnboardingProfile, User]>([
      ["onboarding_profiles", userId],
      ["users", userId],
    ]);
    if (!userEntry.value) throw new NotFoundError(REFUSALS.userNotFound);
    const now = new Date().toISOString();
    const profile: OnboardingProfile = {
      id: entry.value?.id ?? crypto.randomUUID(),
      userId,
      persona: input.persona,
      ...fieldsOf(input),
      createdAt: entry.value?.createdAt ?? now,
      updatedAt: now,
    };
    const op = kv.atomic().check(entry).set(["onboarding_profiles", userId], profile);
    const interests = interestsFor(userEntry.value, profile);
    if (interests) updateUserOps(op, userEntry as Deno.KvEntry<User>, interests);
    if ((await op.commit()).ok) return profile;
  }
}

/** The user's empty interest fields filled from `profile`, or null when none would change. */
function interestsFor(user: User, profile: OnboardingProfile): UserPatch | null {
  const patch: UserPatch = {};
  if (user.opportunityInterests.length === 0 && profile.opportunityInterests.length > 0) {
    patch.opportunityInterests = profile.opportunityInterests;
  }
  if (user.fieldInterests.length === 0 && profile.domainPreferences.length > 0) {
    patch.fieldInterests = profile.domainPreferences;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * True when the user should be sent to `/onboarding`: the user is new (`createdAt` equals
 * `updatedAt`) or has no onboarding profile.
 */
export async function needsOnboarding(kv: Deno.Kv, user: User): Promise<boolean> {
  return user.createdAt === user.updatedAt || await getOnboardingProfile(kv, user.id) === null;
}
