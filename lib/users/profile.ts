/**
 * The profile of a user: what `GET /api/profile` shows and the validation of `POST /api/profile`
 * (docs/api.md, Profile and onboarding, "Profile fields"; docs/decisions.md, Profile and onboarding).
 *
 * Update semantics: `name` is required on every call; any other field that is absent stays as it
 * is; `null` (or `""` for text) clears it; `[]` clears an array. Text is trimmed first. The first
 * invalid field, in the order docs/api.md lists them, is reported as
 * 400 `{error: "Invalid <field>"}`. Keys the schema does not know (`role`, `email`, ...) are ignored.
 *
 * Limits beyond those rules: `name` ≤ 100 characters; `image` an http(s) URL or a
 * path on this site (`/...`), ≤ 2048 characters, never one of the site's uploads (`isProfileImage`); arrays ≤ 20 items of 1–100 characters;
 * `collegeInstitute` ≤ 150 characters and must hold a letter (so it is never digits or punctuation
 * only); `dateOfBirth` from 1900-01-01 up to today in the time zone furthest ahead (UTC+14), so no
 * one's birthday today is refused as "in the future".
 */
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors.ts";
import { fieldProblems, PARSE_WITH_INPUT, type Sentence } from "@/lib/field_messages.ts";
import { TextSchema } from "@/lib/text.ts";
import { fileUrl, ownFilePaths } from "@/lib/files/images.ts";
import { updateUser, type User, USER_NAME_MAX, UserNameSchema } from "./users.ts";

/** Length limits of the profile fields, in characters (the UI uses them as `maxlength`). */
export const PROFILE_LIMITS = {
  name: USER_NAME_MAX,
  image: 2048,
  collegeInstitute: 150,
  contactNumber: 10,
  currentRole: 60,
  listItems: 20,
  listItem: 100,
} as const;

/**
 * Optional clearable text: absent → `undefined` (keep), `null` or blank → `null` (clear),
 * otherwise the trimmed text, at most `max` characters and accepted by `valid`. `accepts` states what `valid` accepts
 * as JSON Schema keywords for the API description (an `enum`, a `pattern`, a `format`); blank stays allowed.
 */
export function clearableText(
  max: number,
  valid: (text: string) => boolean = () => true,
  accepts?: Record<string, unknown>,
) {
  const text = TextSchema.trim().max(max);
  return (accepts ? text.meta({ anyOf: [{ const: "" }, accepts] }) : text).refine((text) => text === "" || valid(text))
    .transform((text) => text === "" ? null : text)
    .nullable()
    .optional();
}

/**
 * Optional clearable list of text: absent → `undefined` (keep), `null` or `[]` → `[]`, otherwise
 * at most 20 trimmed items of 1–100 characters each.
 */
export function textList() {
  return z.array(TextSchema.trim().min(1).max(PROFILE_LIMITS.listItem)).max(PROFILE_LIMITS.listItems)
    .nullable()
    .transform((items) => items ?? [])
    .optional();
}

/**
 * The 400 for the first invalid field of `fields` (JSON names, in reporting order) among zod
 * `issues`: `Invalid <field>`. An issue without a field (the body is not an object) names
 * `fields[0]`, the required field that is then missing. Every invalid field, in that order, is
 * listed as the error's `fields` with its sentence from `messages` (else one made from the issue).
 */
export function invalidFieldError(
  issues: readonly z.core.$ZodIssue[],
  fields: readonly string[],
  messages: Record<string, Sentence> = {},
): InvalidInputError {
  const rank = (issue: z.core.$ZodIssue) => {
    const index = fields.indexOf(String(issue.path[0]));
    return index === -1 ? 0 : index;
  };
  const ordered = [...issues].sort((a, b) => rank(a) - rank(b));
  const byField = ordered.map((issue) => ({ ...issue, path: [fields[rank(issue)]] }));
  return new InvalidInputError(`Invalid ${fields[rank(ordered[0])]}`, fieldProblems(byField, messages));
}

/** The sentence beside each profile field that is not valid. */
export const PROFILE_MESSAGES: Record<string, Sentence> = {
  name: { key: "profile.problem.name", values: { max: PROFILE_LIMITS.name } },
  image: { key: "profile.problem.image" },
  fieldInterests: { key: "profile.problem.interests", values: { max: PROFILE_LIMITS.listItems } },
  opportunityInterests: { key: "profile.problem.interests", values: { max: PROFILE_LIMITS.listItems } },
  dateOfBirth: { key: "profile.problem.dateOfBirth" },
  collegeInstitute: { key: "profile.problem.college", values: { max: PROFILE_LIMITS.collegeInstitute } },
  contactNumber: { key: "profile.problem.contactNumber" },
  currentRole: { key: "fields.maxChars", values: { max: PROFILE_LIMITS.currentRole } },
};

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_MS = 3_600_000;

/** True when `text` is a real calendar date `YYYY-MM-DD` (no 2023-02-30, no month 13). */
export function isCalendarDate(text: string): boolean {
  const match = CALENDAR_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True for a date of birth: a calendar date from 1900-01-01 to today anywhere on Earth (UTC+14). */
export function isDateOfBirth(text: string, now = Date.now()): boolean {
  const latest = new Date(now + 14 * HOUR_MS).toISOString().slice(0, 10);
  return isCalendarDate(text) && text >= "1900-01-01" && text <= latest;
}

/** A contact number: exactly 10 digits. */
const CONTACT_NUMBER = /^\d{10}$/;

const COLLEGE_CHARACTERS = /^[\p{L}\p{M}0-9 .&'()-]+$/u;

/**
 * `collegeInstitute`: letters, digits and spaces plus `.`, `&`, `'`, `(`, `)`, `-`; at least one letter, so
 * digits only ("12345") or punctuation only is refused.
 */
export function isCollegeInstitute(text: string): boolean {
  return COLLEGE_CHARACTERS.test(text) && /\p{L}/u.test(text);
}

/** An http(s) URL, or a path on this site such as `/api/files/<id>`. */
export function isImageReference(text: string): boolean {
  if (/\s|\\/.test(text)) return false;
  if (text.startsWith("/")) return !text.startsWith("//");
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A profile picture: an image reference (`isImageReference`) that is not one of the site's uploads, by its path
 * (`/api/files/<id>`; the caller makes the site's own full address of one its path, `ownFilePaths`). Uploads are the
 * images of banners, posts and toolkits, deleted when none of those names them any more (docs/decisions.md, Ungatekeep
 * and banners; `lib/ungatekeep/image_use.ts`, which reads no profile), so a picture naming one would break then, or
 * keep an image an admin took out served.
 */
export function isProfileImage(text: string): boolean {
  return isImageReference(text) && !text.toLowerCase().startsWith(fileUrl(""));
}

const profileImage = (valid: (text: string) => boolean) =>
  clearableText(PROFILE_LIMITS.image, valid, { format: "uri-reference", pattern: "^(https?://|/)" });

/** Schema of the `POST /api/profile` body; its keys are in the order errors are reported. */
export const profileUpdateSchema = z.object({
  name: UserNameSchema,
  image: profileImage(isProfileImage),
  fieldInterests: textList(),
  opportunityInterests: textList(),
  dateOfBirth: clearableText(10, (text) => isDateOfBirth(text), { format: "date" }),
  collegeInstitute: clearableText(PROFILE_LIMITS.collegeInstitute, isCollegeInstitute),
  contactNumber: clearableText(PROFILE_LIMITS.contactNumber, (text) => CONTACT_NUMBER.test(text), {
    pattern: CONTACT_NUMBER.source,
  }),
  currentRole: clearableText(PROFILE_LIMITS.currentRole),
});

/** The profile fields in the order the API reference lists them (docs/api.md, Profile and onboarding). */
export const PROFILE_FIELDS = Object.keys(profileUpdateSchema.shape) as (keyof ProfileUpdate)[];

/** A validated profile update: only the fields to change; `null`/`[]` clear. */
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/**
 * Validates a `POST /api/profile` body; `appUrl` is the site's address, whose uploads (`/api/files/<id>` under it) are
 * refused as an `image` as their paths are (`isProfileImage`).
 * @throws InvalidInputError `Invalid <field>` naming the first invalid field, every one in `fields`.
 */
export function parseProfileUpdate(body: unknown, appUrl: string): ProfileUpdate {
  const schema = profileUpdateSchema.extend({
    image: profileImage((text) => isProfileImage(ownFilePaths(text, appUrl))),
  });
  const result = schema.safeParse(body, PARSE_WITH_INPUT);
  if (!result.success) throw invalidFieldError(result.error.issues, PROFILE_FIELDS, PROFILE_MESSAGES);
  return result.data;
}

/** The profile as the API shows it (`{user}` of `GET`/`POST /api/profile`). */
export type Profile = Pick<
  User,
  | "id"
  | "name"
  | "email"
  | "image"
  | "fieldInterests"
  | "opportunityInterests"
  | "dateOfBirth"
  | "collegeInstitute"
  | "contactNumber"
  | "currentRole"
>;

/** Projects a user record to exactly the profile fields. */
export function toProfile(user: User): Profile {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: user.image,
    fieldInterests: user.fieldInterests,
    opportunityInterests: user.opportunityInterests,
    dateOfBirth: user.dateOfBirth,
    collegeInstitute: user.collegeInstitute,
    contactNumber: user.contactNumber,
    currentRole: user.currentRole,
  };
}

/**
 * Applies a validated update to the user's profile; absent fields are kept.
 * @throws NotFoundError "User not found".
 */
export async function updateProfile(kv: Deno.Kv, userId: string, update: ProfileUpdate): Promise<Profile> {
  const patch = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
  return toProfile(await updateUser(kv, userId, patch));
}
