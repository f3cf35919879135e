/**
 * `POST /api/auth/send-verification-email` (the Better Auth client's resend path; docs/decisions.md, Auth, "Rate
 * limits of those two"): `{email, callbackURL?}` → always 200 `{status: true}`, answered before any lookup or mail so
 * that its time says nothing about the account. When the e-mail belongs to an unverified user, a fresh verification
 * e-mail is then sent (at most one per 5 minutes per user). 10 requests per minute per IP and 3 per e-mail; a
 * `callbackURL` off this origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField } from "@/lib/auth/input.ts";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { startVerificationResend } from "@/lib/auth/mails.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect } from "@/lib/auth/redirects.ts";
import { normalizeEmail } from "@/lib/users/users.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const SendVerificationBody = z.object({ email: EmailField, callbackURL: z.string().optional() });

export const apiDocs = describeRoute({
  POST: {
    summary: "Send the verification e-mail again",
    description: "Always 200, whether the e-mail belongs to an unverified account or not.",
    body: SendVerificationBody,
    responses: { 200: "`{status: true}`", 429: "Too many requests" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    await services.rateLimits.hit(RATE_LIMITS.verificationPerIp, ctx.state.clientIp);
    const body = await readAuthBody(req, SendVerificationBody);
    const callbackURL = checkRedirect("callbackURL", body.callbackURL, config.appUrl) ?? "/";
    await services.rateLimits.hit(RATE_LIMITS.verificationPerEmail, normalizeEmail(body.email));
    startVerificationResend(services, body.email, callbackURL);
    return Response.json({ status: true });
  },
});
