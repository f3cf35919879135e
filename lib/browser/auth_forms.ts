/**
 * Browser-safe: the rules and sentences of the sign-in, sign-up and password forms, shared by their
 * islands (checked before the API call) and their pages' plain HTML form handlers (checked before
 * the same domain flows run), so a person sees the same words with or without JavaScript
 * (docs/decisions.md, Auth, "The auth forms work without JavaScript"). A rule's sentence is a catalogue message
 * (`auth.problem.*`), told in the page's language by `authText`.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** The catalogue message of an auth form's problem. */
export type AuthProblem = Extract<MessageKey, `auth.problem.${string}`>;

/** A problem per field of a form, keyed by the control's `name`. */
export type FieldMessages<F extends string> = Partial<Record<F, AuthProblem>>;

/** A text per field of a form, keyed by the control's `name`. */
export type FieldTexts<F extends string> = Partial<Record<F, string>>;

/**
 * What a plain HTML submit that failed leaves for the re-rendered page: the values to show
 * again (never a password), a sentence per field in error, a form-level sentence (both in the page's language), and
 * the auth error code when the server refused it (docs/decisions.md, Auth).
 */
export interface FormOutcome<F extends string> {
  values: FieldTexts<F>;
  errors: FieldTexts<F>;
  formError?: string;
  code?: string;
}

/** Client-side e-mail shape check: something@something.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Password length in characters (docs/decisions.md, Auth), as the server counts it. */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const NAME_MIN = 3;
const NAME_MAX = 100;

/** The limits the sentences name, as the values of every `auth.problem.*` message. */
export const AUTH_LIMITS = { min: PASSWORD_MIN, max: PASSWORD_MAX, nameMin: NAME_MIN, nameMax: NAME_MAX };

/** The sentence of an auth problem (or a message under `auth.`) in `t`'s language, its limits filled in. */
export function authText(t: Translate, key: AuthProblem | Extract<MessageKey, `auth.${string}`>): string {
  return t(key, AUTH_LIMITS);
}

/** The problems of a form as sentences in `t`'s language. */
export function authTexts<F extends string>(t: Translate, problems: FieldMessages<F>): FieldTexts<F> {
  return Object.fromEntries(
    Object.entries(problems).map(([field, key]) => [field, authText(t, key as AuthProblem)]),
  ) as FieldTexts<F>;
}

/** The sentence of a refusal for too many attempts, `retryAfterSeconds` before the next may be made. */
export function tooManyText(t: Translate, retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return seconds > 60 ? t("auth.problem.tooMany") : t("auth.problem.waitSeconds", { seconds });
}

function length(text: string): number {
  return [...text].length;
}

/** The length problem of a new password, if any. */
export function newPasswordProblem(password: string): AuthProblem | undefined {
  if (length(password) < PASSWORD_MIN) return "auth.problem.passwordShort";
  if (length(password) > PASSWORD_MAX) return "auth.problem.passwordLong";
}

function emailProblem(email: string): AuthProblem | undefined {
  return EMAIL.test(email.trim()) ? undefined : "auth.problem.email";
}

function only<F extends string>(found: Partial<Record<F, AuthProblem | undefined>>): FieldMessages<F> {
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message)) as FieldMessages<F>;
}

/** Problems of a sign-in form. */
export function signInProblems(v: { email: string; password: string }): FieldMessages<"email" | "password"> {
  return only({ email: emailProblem(v.email), password: v.password === "" ? "auth.problem.password" : undefined });
}

/** Problems of a sign-up form: name 3–100 characters, a valid e-mail, password 8–128 characters. */
export function signUpProblems(
  v: { name: string; email: string; password: string },
): FieldMessages<"name" | "email" | "password"> {
  const name = length(v.name.trim());
  return only({
    name: name < NAME_MIN || name > NAME_MAX ? "auth.problem.name" : undefined,
    email: emailProblem(v.email),
    password: newPasswordProblem(v.password),
  });
}

/** Problems of a password-reset request. */
export function forgotProblems(v: { email: string }): FieldMessages<"email"> {
  return only({ email: emailProblem(v.email) });
}

/** Problems of a new-password form: the length rule, then the confirmation. */
export function resetProblems(
  v: { newPassword: string; confirmPassword: string },
): FieldMessages<"newPassword" | "confirmPassword"> {
  const newPassword = newPasswordProblem(v.newPassword);
  return only({
    newPassword,
    confirmPassword: !newPassword && v.confirmPassword !== v.newPassword ? "auth.problem.mismatch" : undefined,
  });
}

/**
 * The sentence for an auth error code of `/api/auth/*` and the field it belongs to (`password`
 * stands for the form's new-password field), or null for a code a form explains otherwise.
 */
export function authCodeProblem(code: string | undefined): { field?: "email" | "password"; key: AuthProblem } | null {
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return { key: "auth.problem.wrongCredentials" };
    case "USER_ALREADY_EXISTS":
      return { field: "email", key: "auth.problem.exists" };
    case "PASSWORD_TOO_SHORT":
      return { field: "password", key: "auth.problem.passwordShort" };
    case "PASSWORD_TOO_LONG":
      return { field: "password", key: "auth.problem.passwordLong" };
    default:
      return null;
  }
}

/**
 * The link that starts `provider`'s sign-in, coming back to the two targets (same-origin paths); `fresh` asks the
 * provider for a new login (what deleting an account without a password needs).
 */
export function socialSignInHref(
  provider: string,
  callbackURL: string,
  newUserCallbackURL: string,
  fresh = false,
): string {
  const query = new URLSearchParams({ provider, callbackURL, newUserCallbackURL, ...(fresh ? { fresh: "1" } : {}) });
  return `/api/auth/sign-in/social?${query}`;
}
