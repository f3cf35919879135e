/**
 * Browser-safe: the rules and sentences of the sign-in, sign-up and password forms, shared by their
 * islands (checked before the API call) and their pages' plain HTML form handlers (checked before
 * the same domain flows run), so a person sees the same words with or without JavaScript
 * (docs/decisions.md, Auth, "The auth forms work without JavaScript").
 */

/** A message per field of a form, keyed by the control's `name`. */
export type FieldMessages<F extends string> = Partial<Record<F, string>>;

/**
 * What a plain HTML submit that failed leaves for the re-rendered page: the values to show
 * again (never a password), a sentence per field in error, a form-level sentence, and the
 * auth error code when the server refused it (docs/decisions.md, Auth).
 */
export interface FormOutcome<F extends string> {
  values: FieldMessages<F>;
  errors: FieldMessages<F>;
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

/** The sentences the forms show. */
export const AUTH_TEXT = {
  email: "Enter a valid e-mail address, like name@example.com.",
  password: "Enter your password.",
  name: `Enter a name of ${NAME_MIN} to ${NAME_MAX} characters.`,
  passwordShort: `Use at least ${PASSWORD_MIN} characters.`,
  passwordLong: `Use at most ${PASSWORD_MAX} characters.`,
  mismatch: "The passwords do not match.",
  wrongCredentials: "The e-mail or password is not right.",
  exists: "An account with this e-mail already exists.",
  tooMany: "Too many attempts. Wait a minute and try again.",
  resendHint: "No e-mail? Enter your password and sign in again to get a new link.",
} as const;

function length(text: string): number {
  return [...text].length;
}

/** The length problem of a new password, if any. */
export function newPasswordProblem(password: string): string | undefined {
  if (length(password) < PASSWORD_MIN) return AUTH_TEXT.passwordShort;
  if (length(password) > PASSWORD_MAX) return AUTH_TEXT.passwordLong;
}

function emailProblem(email: string): string | undefined {
  return EMAIL.test(email.trim()) ? undefined : AUTH_TEXT.email;
}

function only<F extends string>(found: Partial<Record<F, string | undefined>>): FieldMessages<F> {
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message)) as FieldMessages<F>;
}

/** Problems of a sign-in form. */
export function signInProblems(v: { email: string; password: string }): FieldMessages<"email" | "password"> {
  return only({ email: emailProblem(v.email), password: v.password === "" ? AUTH_TEXT.password : undefined });
}

/** Problems of a sign-up form: name 3–100 characters, a valid e-mail, password 8–128 characters. */
export function signUpProblems(
  v: { name: string; email: string; password: string },
): FieldMessages<"name" | "email" | "password"> {
  const name = length(v.name.trim());
  return only({
    name: name < NAME_MIN || name > NAME_MAX ? AUTH_TEXT.name : undefined,
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
    confirmPassword: !newPassword && v.confirmPassword !== v.newPassword ? AUTH_TEXT.mismatch : undefined,
  });
}

/**
 * The sentence for an auth error code of `/api/auth/*` and the field it belongs to (`password`
 * stands for the form's new-password field), or null for a code a form explains otherwise.
 */
export function authCodeProblem(code: string | undefined): { field?: "email" | "password"; message: string } | null {
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return { message: AUTH_TEXT.wrongCredentials };
    case "USER_ALREADY_EXISTS":
      return { field: "email", message: AUTH_TEXT.exists };
    case "PASSWORD_TOO_SHORT":
      return { field: "password", message: AUTH_TEXT.passwordShort };
    case "PASSWORD_TOO_LONG":
      return { field: "password", message: AUTH_TEXT.passwordLong };
    default:
      return null;
  }
}

/** The link that starts `provider`'s sign-in, coming back to the two targets (same-origin paths). */
export function socialSignInHref(provider: string, callbackURL: string, newUserCallbackURL: string): string {
  return `/api/auth/sign-in/social?${new URLSearchParams({ provider, callbackURL, newUserCallbackURL })}`;
}
