/**
 * `POST /api/auth/sign-up/email`: creates an account with e-mail and password; its `apiDocs` below are its
 * description (docs/api.md, Authentication; docs/decisions.md, Auth, "Sign-up checks in a fixed order").
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { SignUpFields, signUpWithPassword } from "@/lib/auth/password_flows.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, REDIRECT_MAX, RedirectTargetField } from "@/lib/auth/redirects.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/auth/passwords.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { askingBrowserBinding } from "@/lib/http/cookies.ts";
import { checkedLater, describeRoute, perWindow } from "@/lib/openapi/describe.ts";
import { AuthUserSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const SignUpBody = SignUpFields.extend({
  password: checkedLater(SignUpFields.shape.password, { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
  callbackURL: RedirectTargetField.optional(),
  image: z.url({ protocol: /^https?$/ }).max(REDIRECT_MAX).nullable().optional(),
});

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Create an account with e-mail and password",
    description: "The account is created unverified with role `user` (an e-mail of `ADMIN_EMAILS` becomes `admin` " +
      "once verified; `role`, `emailVerified` and `id` in the body are ignored), and a verification e-mail linking on to " +
      "`callbackURL` is sent. The answer sets no session, only the HTTP-only verification binding cookie (kept while " +
      "the link lives, reused when the browser has one): the link signs in only this browser. The checks run in a fixed order: the fields, the password length " +
      "(`PASSWORD_TOO_SHORT`, `PASSWORD_TOO_LONG`), the `callbackURL`, then whether the e-mail is taken.",
    body: SignUpBody,
    responses: {
      200: { description: "Created", schema: z.strictObject({ token: z.null(), user: AuthUserSchema }) },
      400: "`VALIDATION_ERROR` (with `fields`), `INVALID_JSON_BODY`, a password length or `INVALID_CALLBACK_URL`",
      422: "`USER_ALREADY_EXISTS`",
      429: `Over ${perWindow(RATE_LIMITS.signUpPerIp)} per IP`,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    await services.rateLimits.hit(RATE_LIMITS.signUpPerIp, ctx.state.clientIp);
    const body = await readAuthBody(req, SignUpBody);
    const { binding, setCookie } = askingBrowserBinding(req, config.secure);
    const user = await signUpWithPassword(services, { ...body, language: ctx.state.lang }, {
      verifyTarget: () => checkRedirect("callbackURL", body.callbackURL, config.appUrl) ?? "/",
      binding,
    });
    return Response.json({ token: null, user: authUserView(user) }, {
      headers: { "set-cookie": setCookie },
    });
  },
});
