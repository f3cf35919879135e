/**
 * `POST /api/auth/forget-password` (docs/api.md, Authentication, "E-mails"; docs/decisions.md, Auth):
 * `{email, redirectTo?}` → always 200 `{status: true}`, answered before any lookup or mail so that its time says
 * nothing about the account; when the e-mail belongs to a user, a reset e-mail then links to
 * `{APP_URL}{redirectTo}?token=…` (default `/reset-password`). 10 requests per minute per IP and 3 per e-mail; a
 * `redirectTo` off this origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField } from "@/lib/auth/input.ts";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { DEFAULT_RESET_PATH } from "@/lib/auth/mails.ts";
import { startPasswordReset } from "@/lib/auth/mails.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect } from "@/lib/auth/redirects.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { normalizeEmail } from "@/lib/users/users.ts";

const ForgetPasswordBody = z.object({ email: EmailField, redirectTo: z.string().optional() });

export const apiDocs = describeRoute({
  POST: {
    summary: "Ask for a password reset e-mail",
    description: "Always 200, whether the e-mail belongs to an account or not.",
    body: ForgetPasswordBody,
    responses: { 200: "`{status: true}`", 429: "Too many requests" },
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
