/**
 * `POST /api/auth/sign-in/email` (docs/api.md, Authentication, docs/decisions.md, Auth):
 * `{email, password, callbackURL?, rememberMe?}` → 200 `{redirect: false, token: null, user}`
 * and the session cookie (`rememberMe: false`: a browser-session cookie). Wrong e-mail or
 * password: 401 `INVALID_EMAIL_OR_PASSWORD`; unverified e-mail: 403 `EMAIL_NOT_VERIFIED` and a
 * fresh verification e-mail (at most one per 5 minutes). Limits: 60 per minute per IP, 5 per
 * 10 seconds per e-mail and IP.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { SignInFields, signInSubject, signInWithPassword } from "@/lib/auth/password_flows.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect } from "@/lib/auth/redirects.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AuthUserSchema } from "@/lib/openapi/resources.ts";

const SignInBody = SignInFields.extend({
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
});

export const apiDocs = describeRoute({
  POST: {
    summary: "Sign in with e-mail and password",
    description: "Sets the session cookie. Unverified e-mail: 403 `EMAIL_NOT_VERIFIED` and a new verification e-mail.",
    body: SignInBody,
    responses: {
      200: {
        description: "Signed in",
        schema: z.strictObject({ redirect: z.literal(false), token: z.null(), user: AuthUserSchema }),
      },
      401: "Invalid e-mail or password",
      403: "E-mail not verified",
      429: "Too many requests",
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
    const previous = readSessionCookie(req, config.secure);
    await services.rateLimits.hit(RATE_LIMITS.signInPerEmailAndIp, signInSubject(body.email, ip));
    const { user, token } = await signInWithPassword(services, {
      input: body,
      verifyTarget: callbackURL,
      previousCookie: previous,
    });
    return Response.json({ redirect: false, token: null, user: authUserView(user) }, {
      headers: { "set-cookie": sessionCookie(config.secure, token, body.rememberMe !== false) },
    });
  },
});
