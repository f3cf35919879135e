/**
 * `POST /api/auth/forget-password` (specification "Authentication routes" and "Events",
 * CONTRACT.md §2): `{email, redirectTo?}` → always 200 `{status: true}`; when the e-mail
 * belongs to a user, a reset e-mail links to `{APP_URL}{redirectTo}?token=…` (default
 * `/reset-password`). 3 requests per minute per e-mail; a `redirectTo` off this origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { EmailField, readAuthBody } from "@/lib/auth/input.ts";
import { DEFAULT_RESET_PATH, sendPasswordResetMail } from "@/lib/auth/mails.ts";
import { hitRateLimit, RATE_LIMITS } from "@/lib/http/rate_limit.ts";
import { checkRedirect } from "@/lib/http/redirects.ts";
import { getUserByEmail, normalizeEmail } from "@/lib/users/users.ts";

const ForgetPasswordBody = z.object({ email: EmailField, redirectTo: z.string().optional() });

export const handler = define.handlers({
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { kv, config } = services;
    const body = await readAuthBody(req, ForgetPasswordBody);
    const redirectTo = checkRedirect("redirectTo", body.redirectTo, config.appUrl) ?? DEFAULT_RESET_PATH;
    await hitRateLimit(kv, RATE_LIMITS.passwordResetPerEmail, normalizeEmail(body.email), config.rateLimits);
    const user = await getUserByEmail(kv, body.email);
    if (user) await sendPasswordResetMail(services, user, redirectTo);
    return Response.json({ status: true });
  },
});
