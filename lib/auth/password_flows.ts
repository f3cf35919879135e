/**
 * The e-mail and password flows as both of their edges run them (docs/decisions.md, Auth): the
 * JSON endpoints under `/api/auth/` and the pages' plain HTML forms (`/sign-in`, `/sign-up`,
 * `/forgot-password`, `/reset-password`), so the rules and e-mails are the same however a person
 * signs in. Each edge counts the request against its limits (`RATE_LIMITS`, per IP and per
 * e-mail) and reads its input; these functions do the rest and throw the typed errors of
 * `lib/errors.ts` (`AuthError` with its code).
 */
import { z } from "zod";
import type { Lang } from "@/lib/i18n/languages.ts";
import { AuthError } from "@/lib/errors.ts";
import type { Services } from "@/lib/platform/state.ts";
import { normalizeEmail, type User, UserNameSchema } from "@/lib/users/users.ts";
import { checkCredentials, readResetLink, resetPassword, signUp } from "./email_password.ts";
import { checkPasswordLength, EmailField } from "./input.ts";
import { sendVerificationMail } from "./mails.ts";
import { passwordChangedMail } from "@/lib/mail/templates.tsx";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { refuseSuspended, replaceSession } from "./sessions.ts";

/** The fields of an e-mail sign-in. */
export const SignInFields = z.object({ email: EmailField, password: z.string() });

/** The fields of an e-mail sign-up (the password length is checked by `signUpWithPassword`). */
export const SignUpFields = z.object({ name: UserNameSchema, email: EmailField, password: z.string() });

/**
 * Signs `email` in: the password check, and for an unverified e-mail a fresh verification link
 * to `verifyTarget` (at most one per 5 minutes), bound to the browser's verification binding
 * cookie value `binding` when it has one. The browser's previous session (`previousCookie`)
 * ends; the new one is `persistent` ("Remember me", default true) or lasts the browser session
 * through its renewals too; `language`, the page's, becomes the person's setting when they have none and it is not English
 * (`createSession`). The caller has counted the try (`signInSubject`).
 * @returns the user and the new session's cookie value.
 * @throws AuthError `INVALID_EMAIL_OR_PASSWORD` (401), `ACCOUNT_SUSPENDED` (403, before any verification link),
 *   `EMAIL_NOT_VERIFIED` (403).
 */
export async function signInWithPassword(
  services: Services,
  { input, verifyTarget, previousCookie, binding, persistent, language }: {
    input: z.infer<typeof SignInFields>;
    verifyTarget: string;
    previousCookie: string | undefined;
    binding: string | undefined;
    persistent?: boolean;
    language?: Lang;
  },
): Promise<{ user: User; token: string }> {
  const { kv } = services;
  const { user, guard } = await checkCredentials(kv, input.email, input.password);
  refuseSuspended(user);
  if (!user.emailVerified) {
    await sendVerificationMail(services, user, { callbackURL: verifyTarget, binding });
    throw new AuthError("EMAIL_NOT_VERIFIED", "Email not verified");
  }
  const { token } = await replaceSession(kv, {
    userId: user.id,
    previousToken: previousCookie,
    guard,
    persistent,
    language,
  });
  return { user, token };
}

/**
 * Creates an unverified account and mails its verification link to the target `verifyTarget`
 * gives, bound to the browser whose verification binding cookie value is `binding` (the caller
 * sets that cookie). The checks run in a fixed order (docs/decisions.md, Auth, "Sign-up checks
 * in a fixed order"): the password length, then the target (`verifyTarget` may throw its
 * refusal), then whether the e-mail is taken.
 * @throws AuthError `PASSWORD_TOO_SHORT`/`PASSWORD_TOO_LONG` (400), what `verifyTarget` throws,
 *   `USER_ALREADY_EXISTS` (422).
 */
export async function signUpWithPassword(
  services: Services,
  input: z.infer<typeof SignUpFields> & { image?: string | null; language?: Lang },
  { verifyTarget, binding }: { verifyTarget: () => string; binding: string },
): Promise<User> {
  checkPasswordLength(input.password);
  const callbackURL = verifyTarget();
  const user = await signUp(services.kv, input);
  await sendVerificationMail(services, user, { callbackURL, binding });
  return user;
}

/** The subject of the per-e-mail-and-IP sign-in limit (`RATE_LIMITS.signInPerEmailAndIp`). */
export function signInSubject(email: string, ip: string): string {
  return `${normalizeEmail(email)} ${ip}`;
}

/**
 * What a reset with `token` would meet, read without spending it: `live`, `dead` (malformed, unknown, spent, expired or
 * older than the user's sessions; `readResetLink`) or `suspended` (its person is suspended, so the reset is refused;
 * docs/decisions.md, Admin, "Suspension"). The reset page then says so at once, instead of after the passwords were
 * typed.
 */
export async function resetLinkState(kv: Deno.Kv, token: string): Promise<"live" | "dead" | "suspended"> {
  const link = await readResetLink(kv, token);
  return link === null ? "dead" : link.user.value.suspension ? "suspended" : "live";
}

/**
 * Replaces the password of the reset token's user, spends the token, ends every session of the
 * user and queues the notice that the password was changed (`passwordChangedMail`, in the
 * person's language), all in one write; then starts the notice's delivery. The password is
 * checked before the token.
 * @throws AuthError `PASSWORD_TOO_SHORT`/`PASSWORD_TOO_LONG`, then `INVALID_TOKEN` (400), `ACCOUNT_SUSPENDED` (403,
 *   nothing written or mailed); ConflictError (409) when other writes kept changing the user record (`resetPassword`).
 */
export async function resetPasswordWithToken(services: Services, token: unknown, newPassword: string): Promise<void> {
  checkPasswordLength(newPassword);
  const { kv, config } = services;
  let mailId = "";
  const notice = (op: Deno.AtomicOperation, user: User) => {
    const mail = passwordChangedMail({
      to: user.email,
      name: user.emailVerified ? user.name : null,
      changedAt: new Date().toISOString(),
      forgotUrl: `${config.appUrl}/forgot-password`,
      t: translatorOfPerson(user),
    });
    mailId = queueMailOps(op, { ...mail, userId: user.id, retryable: true });
  };
  if (typeof token !== "string" || !await resetPassword(kv, token, newPassword, notice)) {
    throw new AuthError("INVALID_TOKEN", "Invalid token");
  }
  deliverSoon(services, mailId);
}
