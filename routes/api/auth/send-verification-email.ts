/**
 * `POST /api/auth/send-verification-email`: the Better Auth client's path to send the verification e-mail again; its
 * `apiDocs` below are its description (docs/api.md, Authentication, "E-mail verification"; docs/decisions.md, Auth,
 * "Rate limits of those two").
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField } from "@/lib/auth/input.ts";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { startVerificationResend } from "@/lib/auth/mails.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, RedirectTargetField } from "@/lib/auth/redirects.ts";
import { normalizeEmail } from "@/lib/users/users.ts";
import { describeRoute, duration, perWindow } from "@/lib/openapi/describe.ts";
import { AUTH_MAILS_PER_DAY, VERIFICATION_MAIL_GAP_MS } from "@/lib/auth/verification.ts";
import { askingBrowserBinding } from "@/lib/http/cookies.ts";
import { StatusSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const SendVerificationBody = z.object({ email: EmailField, callbackURL: RedirectTargetField.optional() });

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Send the verification e-mail again",
    description: "Always 200 `{status: true}`, answered before any lookup or mail so that neither the answer nor its " +
      "time says whether the e-mail has an account. When it belongs to an unverified user, a fresh verification " +
      `e-mail linking on to \`callbackURL\` (default \`/\`) is then sent, at most one per ` +
      `${
        duration(VERIFICATION_MAIL_GAP_MS)
      } per user and ${AUTH_MAILS_PER_DAY} per 24 hours. The answer sets the HTTP-only verification binding cookie (reused when the browser has one), so ` +
      "that link signs in only this browser, as at sign-up. A `callbackURL` off this origin: 400 " +
      "`INVALID_CALLBACK_URL`.",
    body: SendVerificationBody,
    responses: {
      200: { description: "Accepted", schema: StatusSchema },
      429: `Over ${perWindow(RATE_LIMITS.verificationPerIp)} per IP, or ${
        perWindow(RATE_LIMITS.verificationPerEmail)
      } per e-mail`,
    },
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
    const { binding, setCookie } = askingBrowserBinding(req, config.secure);
    startVerificationResend(services, body.email, { callbackURL, binding });
    return Response.json({ status: true }, {
      headers: { "set-cookie": setCookie },
    });
  },
});
