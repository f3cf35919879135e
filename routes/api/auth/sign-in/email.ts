/**
 * `POST /api/auth/sign-in/email`: signs in with e-mail and password; its `apiDocs` below are its description
 * (docs/api.md, Authentication; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { SignInFields } from "@/lib/auth/password_flows.ts";
import { passwordSignIn } from "@/lib/http/password_sign_in.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, RedirectTargetField } from "@/lib/auth/redirects.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { describeRoute, duration, perWindow } from "@/lib/openapi/describe.ts";
import { VERIFICATION_MAIL_GAP_MS } from "@/lib/auth/verification.ts";
import { KNOWN_DEVICE_TTL_MS } from "@/lib/auth/known_devices.ts";
import { AuthUserSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const SignInBody = SignInFields.extend({
  callbackURL: RedirectTargetField.optional(),
  rememberMe: z.boolean().optional(),
});

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Sign in with e-mail and password",
    description:
      "Sets the session cookie (`rememberMe: false`: a cookie for this browser session only, renewals too) " +
      "and ends the " +
      "browser's previous session, and marks the browser a known device of the account (the `known_device` cookie, " +
      `${duration(KNOWN_DEVICE_TTL_MS)}): its later tries count against the device's limit, not the e-mail's. ` +
      "An account without a `language` setting gets the request's language when that is Hindi (none means English). " +
      "A suspended account is 403 `ACCOUNT_SUSPENDED` (its sentence says how to appeal). " +
      "An unverified e-mail is 403 `EMAIL_NOT_VERIFIED`, and a fresh verification " +
      `e-mail linking on to \`callbackURL\` is sent (at most one per ${duration(VERIFICATION_MAIL_GAP_MS)}).`,
    body: SignInBody,
    responses: {
      200: {
        description: "Signed in",
        schema: z.strictObject({ redirect: z.literal(false), token: z.null(), user: AuthUserSchema }),
      },
      400: "`VALIDATION_ERROR` (with `fields`), `INVALID_JSON_BODY` or `INVALID_CALLBACK_URL`",
      401: "`INVALID_EMAIL_OR_PASSWORD`",
      403: "`ACCOUNT_SUSPENDED` or `EMAIL_NOT_VERIFIED`",
      429: `Over ${perWindow(RATE_LIMITS.signInPerIp)} per IP, ${
        perWindow(RATE_LIMITS.signInPerEmailAndIp)
      } per e-mail and IP, or ${perWindow(RATE_LIMITS.signInPerEmail)} per e-mail (${
        perWindow(RATE_LIMITS.signInPerKnownDevice)
      } per device from a known device)`,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    const ip = ctx.state.clientIp;
    await services.rateLimits.hit(RATE_LIMITS.signInPerIp, ip);
    const body = await readAuthBody(req, SignInBody);
    const callbackURL = checkRedirect("callbackURL", body.callbackURL, config.appUrl) ?? "/";
    const { user, cookies } = await passwordSignIn(services, req, {
      clientIp: ip,
      input: body,
      verifyTarget: callbackURL,
      persistent: body.rememberMe !== false,
      language: ctx.state.lang,
    });
    return Response.json({ redirect: false, token: null, user: authUserView(user) }, { headers: cookies });
  },
});
