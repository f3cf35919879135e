/**
 * `POST /api/auth/forget-password` (docs/api.md, Authentication, "E-mails"; docs/decisions.md, Auth):
 * `{email, redirectTo?}` → always 200 `{status: true}`, answered before any lookup or mail so that its time says
 * nothing about the account; when the e-mail belongs to a user, a reset e-mail then links to
 * `{APP_URL}{redirectTo}?token=…` (default `/reset-password`). 10 requests per minute per IP and 3 per e-mail; a
 * `redirectTo` off this origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField, readAuthBody } from "@/lib/auth/input.ts";
import { DEFAULT_RESET_PATH } from "@/lib/auth/mails.ts";
import { requestPasswordReset } from "@/lib/auth/password_flows.ts";
import { hitRateLimit, RATE_LIMITS } from "@/lib/http/rate_limit.ts";
import { checkRedirect } from "@/lib/http/redirects.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

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
    const { kv, config } = services;
    await hitRateLimit(kv, {
      rule: RATE_LIMITS.passwordResetPerIp,
      subject: ctx.state.clientIp,
      enabled: config.rateLimits,
    });
    const body = await readAuthBody(req, ForgetPasswordBody);
    const redirectTo = checkRedirect("redirectTo", body.redirectTo, config.appUrl) ?? DEFAULT_RESET_PATH;
    await requestPasswordReset(services, body.email, redirectTo);
    return Response.json({ status: true });
  },
});
