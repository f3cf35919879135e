/**
 * Sending the two auth e-mails (docs/api.md, Ungatekeep, docs/decisions.md, Auth) through the
 * platform's mailer. A mail that cannot be sent is logged, never thrown: the account stays
 * usable and a later sign-in (or resend) sends a fresh link.
 */
import type { Services } from "@/lib/platform/state.ts";
import { passwordResetMail, verificationMail } from "@/lib/mail/templates.ts";
import { getUserByEmail, type User } from "@/lib/users/users.ts";
import { withQuery } from "@/lib/http/redirects.ts";
import { claimVerificationMail, issueToken, releaseVerificationMail } from "./verification.ts";

/** The default page of the reset link when the client names none. */
export const DEFAULT_RESET_PATH = "/reset-password";

/**
 * Sends `user` a verification link `{APP_URL}/api/auth/verify-email?token=…&callbackURL=…`,
 * unless one was sent in the last 5 minutes. `callbackURL` is a checked redirect target.
 */
export async function sendVerificationMail(services: Services, user: User, callbackURL: string): Promise<void> {
  const { kv, config, mailer, log } = services;
  if (!await claimVerificationMail(kv, user.id)) return;
  const token = await issueToken(kv, "verify-email", user);
  const url = `${config.appUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL)}`;
  try {
    await mailer.send(verificationMail({ to: user.email, name: user.name, url }));
  } catch (error) {
    log.error("verification mail not sent", { userId: user.id, error: String(error) });
    await releaseVerificationMail(kv, user.id);
  }
}

/**
 * Runs `work` after the caller has answered: a request that mails whoever owns `email` answers
 * in the same time whether or not the address belongs to an account, and never waits on the
 * SMTP server (docs/decisions.md, Auth). A failure is logged as `label`, never thrown.
 */
function afterAnswer(services: Services, label: string, work: () => Promise<void>): void {
  work().catch((error) => services.log.error(label, { error: String(error) }));
}

/**
 * Starts a password reset for `email` and returns at once (`afterAnswer`): when the address
 * belongs to a user, a reset link is mailed. `redirectTo` is a checked redirect target.
 */
export function startPasswordReset(services: Services, email: string, redirectTo: string): void {
  afterAnswer(services, "password reset not started", async () => {
    const user = await getUserByEmail(services.kv, email);
    if (user) await sendPasswordResetMail(services, user, redirectTo);
  });
}

/**
 * Starts sending a fresh verification link to `email` and returns at once (`afterAnswer`): only
 * when the address belongs to a user who has not verified it, at most once per 5 minutes.
 * `callbackURL` is a checked redirect target.
 */
export function startVerificationResend(services: Services, email: string, callbackURL: string): void {
  afterAnswer(services, "verification mail not started", async () => {
    const user = await getUserByEmail(services.kv, email);
    if (user && !user.emailVerified) await sendVerificationMail(services, user, callbackURL);
  });
}

/**
 * Sends `user` a password-reset link `{APP_URL}{redirectTo}?token=…`; `redirectTo` is a
 * checked redirect target.
 */
export async function sendPasswordResetMail(services: Services, user: User, redirectTo: string): Promise<void> {
  const { kv, config, mailer, log } = services;
  const token = await issueToken(kv, "reset-password", user);
  const url = new URL(withQuery(redirectTo, config.appUrl, "token", token), config.appUrl).href;
  try {
    await mailer.send(passwordResetMail({ to: user.email, name: user.name, url }));
  } catch (error) {
    log.error("password reset mail not sent", { userId: user.id, error: String(error) });
  }
}
