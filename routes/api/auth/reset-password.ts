/**
 * `POST /api/auth/reset-password` (docs/api.md, Authentication, "Password reset"; docs/decisions.md, Auth):
 * `{newPassword, token}` (the token may also come as `?token=`) → 200 `{status: true}`; the password is
 * replaced, the token spent and every session of the user ended. The password is checked first (400
 * `PASSWORD_TOO_SHORT`/`PASSWORD_TOO_LONG`), then the token (400 `INVALID_TOKEN` when bad, spent or
 * expired).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { resetPasswordWithToken } from "@/lib/auth/password_flows.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const ResetPasswordBody = z.object({ newPassword: z.string(), token: z.unknown().optional() });

export const apiDocs = describeRoute({
  POST: {
    summary: "Set a new password with a reset token",
    description: "The token may also come as `?token=`. Every session of the user ends.",
    body: ResetPasswordBody,
    responses: { 200: "`{status: true}`" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const body = await readAuthBody(req, ResetPasswordBody);
    await resetPasswordWithToken(kv, body.token ?? ctx.url.searchParams.get("token"), body.newPassword);
    return Response.json({ status: true });
  },
});
