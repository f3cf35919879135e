/**
 * The two auth e-mails (docs/api.md, Authentication, "E-mails"; docs/decisions.md, Background work, "The outbox"),
 * queued in the outbox in the person's language (docs/decisions.md, Languages, "E-mails"): each link's token and its
 * mail are written in one atomic write, and the request starts one
 * delivery try it does not wait for. A mail the SMTP server refuses stays in the outbox and is retried by the `outbox`
 * job.
 */
import type { Services } from "@/lib/platform/state.ts";
import { passwordResetMail, verificationMail } from "@/lib/mail/templates.tsx";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { getUserByEmail, type User } from "@/lib/users/users.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { withQuery } from "./redirects.ts";
import { claimDailyAuthMail, claimVerificationMail, issueTokenOps } from "./verification.ts";

/** The default page of the reset link when the client names none. */
export const DEFAULT_RESET_PATH = "/reset-password";

/**
 * Queues a verification link `{APP_URL}/api/auth/verify-email?token=…&callbackURL=…` for `user`, unless one was
 * queued in the last 5 minutes or `AUTH_MAILS_PER_DAY` in the last 24 hours (`claimDailyAuthMail`). `callbackURL`
 * is a checked redirect target; the link signs in only the browser whose verification binding cookie value is
 * `binding` (none without it; docs/decisions.md, Auth).
 */
export async function sendVerificationMail(
  services: Services,
  user: User,
  { callbackURL, binding }: { callbackURL: string; binding: string | undefined },
): Promise<void> {
  const { kv, config } = services;
  if (!await claimVerificationMail(kv, user.id) || !await claimDailyAuthMail(kv, "verify-email", user.id)) return;
  const op = kv.atomic();
  const token = await issueTokenOps(op, "verify-email", user, binding);
  const url = `${config.appUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL)}`;
  const id = queueMailOps(op, {
    ...verificationMail({ to: user.email, url, t: translatorOfPerson(user) }),
    userId: user.id,
  });
  await op.commit();
  deliverSoon(services, id);
}

/**
 * Starts a password reset for `email` and returns at once: a request that mails whoever owns `email` answers in the
 * same time whether or not the address belongs to an account (docs/decisions.md, Auth). When it belongs to a user, a
 * reset link is queued. `redirectTo` is a checked redirect target.
 */
export function startPasswordReset(services: Services, email: string, redirectTo: string): void {
  services.background.start(services.log, "password reset not started", async () => {
    const user = await getUserByEmail(services.kv, email);
    if (user) await sendPasswordResetMail(services, user, redirectTo);
  });
}

/**
 * Starts queueing a fresh verification link to `email` and returns at once (as `startPasswordReset`): only when the
 * address belongs to a user who has not verified it, at most once per 5 minutes. `callbackURL` is a checked redirect
 * target; `binding` the asking browser's verification binding cookie value (`sendVerificationMail`).
 */
export function startVerificationResend(
  services: Services,
  email: string,
  target: { callbackURL: string; binding: string },
): void {
  services.background.start(services.log, "verification mail not started", async () => {
    const user = await getUserByEmail(services.kv, email);
    if (user && !user.emailVerified) await sendVerificationMail(services, user, target);
  });
}

/**
 * Queues a password-reset link `{APP_URL}{redirectTo}?token=…` for `user`, unless `AUTH_MAILS_PER_DAY` were queued in
 * the last 24 hours (`claimDailyAuthMail`); `redirectTo` is a checked redirect target.
 */
export async function sendPasswordResetMail(services: Services, user: User, redirectTo: string): Promise<void> {
  const { kv, config } = services;
  if (!await claimDailyAuthMail(kv, "reset-password", user.id)) return;
  const op = kv.atomic();
  const token = await issueTokenOps(op, "reset-password", user);
  const url = new URL(withQuery(redirectTo, config.appUrl, { token }), config.appUrl).href;
  const id = queueMailOps(op, {
    ...passwordResetMail({
      to: user.email,
      name: user.emailVerified ? user.name : null,
      url,
      t: translatorOfPerson(user),
    }),
    userId: user.id,
  });
  await op.commit();
  deliverSoon(services, id);
}
