/**
 * `POST /api/auth/forget-password`: asks for a password reset e-mail; its `apiDocs` below are its description
 * (docs/api.md, Authentication, "Password reset"; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField } from "@/lib/auth/input.ts";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { DEFAULT_RESET_PATH } from "@/lib/auth/mails.ts";
import { startPasswordReset } from "@/lib/auth/mails.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, RedirectTargetField } from "@/lib/auth/redirects.ts";
import { describeRoute, duration, perWindow } from "@/lib/openapi/describe.ts";
import { normalizeEmail } from "@/lib/users/users.ts";
import { AUTH_MAILS_PER_DAY, TOKEN_TTL_MS } from "@/lib/auth/verification.ts";
import { StatusSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const ForgetPasswordBody = z.object({ email: EmailField, redirectTo: RedirectTargetField.optional() });

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Ask for a password reset e-mail",
    description: "Always 200 `{status: true}`, answered before any lookup or mail so that neither the answer nor its " +
      "time says whether the e-mail has an account. When it has, a reset e-mail then links to " +
      `\`{APP_URL}{redirectTo}?token=…\` (default \`${DEFAULT_RESET_PATH}\`), a token that lives ` +
      `${
        duration(TOKEN_TTL_MS)
      } and is spent once; at most ${AUTH_MAILS_PER_DAY} such e-mails per user in 24 hours. A ` +
      "`redirectTo` off this origin: 400 `INVALID_REDIRECT_TO`.",
    body: ForgetPasswordBody,
    responses: {
      200: { description: "Accepted", schema: StatusSchema },
      429: `Over ${perWindow(RATE_LIMITS.passwordResetPerIp)} per IP, or ${
        perWindow(RATE_LIMITS.passwordResetPerEmail)
      } per e-mail`,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    await services.rateLimits.hit(RATE_LIMITS.passwordResetPerIp, ctx.state.clientIp);
    const body = await readAuthBody(req, ForgetPasswordBody);
    const redirectTo = checkRedirect("redirectTo", body.redirectTo, config.appUrl) ?? DEFAULT_RESET_PATH;
    await services.rateLimits.hit(RATE_LIMITS.passwordResetPerEmail, normalizeEmail(body.email));
    startPasswordReset(services, body.email, redirectTo);
    return Response.json({ status: true });
  },
});
