/**
 * `POST /api/auth/send-verification-email` (the Better Auth client's resend path; CONTRACT.md
 * §2 rate limits): `{email, callbackURL?}` → always 200 `{status: true}`. When the e-mail
 * belongs to an unverified user, a fresh verification e-mail is sent (at most one per 5 minutes
 * per user). 3 requests per minute per e-mail; a `callbackURL` off this origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField, readAuthBody } from "@/lib/auth/input.ts";
import { sendVerificationMail } from "@/lib/auth/mails.ts";
import { hitRateLimit, RATE_LIMITS } from "@/lib/http/rate_limit.ts";
import { checkRedirect } from "@/lib/http/redirects.ts";
import { getUserByEmail, normalizeEmail } from "@/lib/users/users.ts";

const SendVerificationBody = z.object({ email: EmailField, callbackURL: z.string().optional() });

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { kv, config } = services;
    const body = await readAuthBody(req, SendVerificationBody);
    const callbackURL = checkRedirect("callbackURL", body.callbackURL, config.appUrl) ?? "/";
    await hitRateLimit(kv, RATE_LIMITS.verificationPerEmail, normalizeEmail(body.email), config.rateLimits);
    const user = await getUserByEmail(kv, body.email);
    if (user && !user.emailVerified) await sendVerificationMail(services, user, callbackURL);
    return Response.json({ status: true });
  },
});
