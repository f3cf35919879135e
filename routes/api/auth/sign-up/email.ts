/**
 * `POST /api/auth/sign-up/email` (docs/api.md, Authentication, docs/decisions.md, Auth):
 * `{name, email, password, callbackURL?, image?}` → 200 `{token: null, user}`. The user is created
 * unverified (role from `ADMIN_EMAILS`, else `user`; `role`, `emailVerified` and `id` in the body
 * are ignored) and a verification e-mail is sent. 10 sign-ups per minute per IP. The checks run in
 * a fixed order (docs/decisions.md, Auth, "Sign-up checks in a fixed order").
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { SignUpFields, signUpWithPassword } from "@/lib/auth/password_flows.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, REDIRECT_MAX } from "@/lib/auth/redirects.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AuthUserSchema } from "@/lib/openapi/resources.ts";

const SignUpBody = SignUpFields.extend({
  callbackURL: z.string().optional(),
  image: z.url({ protocol: /^https?$/ }).max(REDIRECT_MAX).nullable().optional(),
});

export const apiDocs = describeRoute({
  POST: {
    summary: "Create an account with e-mail and password",
    description: "The account starts unverified; a verification e-mail is sent.",
    body: SignUpBody,
    responses: {
      200: { description: "Created", schema: z.strictObject({ token: z.null(), user: AuthUserSchema }) },
      422: "User already exists",
      429: "Too many requests",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    await services.rateLimits.hit(RATE_LIMITS.signUpPerIp, ctx.state.clientIp);
    const body = await readAuthBody(req, SignUpBody);
    const user = await signUpWithPassword(
      services,
      { ...body, language: ctx.state.lang },
      () => checkRedirect("callbackURL", body.callbackURL, config.appUrl) ?? "/",
    );
    return Response.json({ token: null, user: authUserView(user) });
  },
});
