/**
 * `DELETE /api/me` (session) `{confirm, password?}`: deletes the caller's account (`lib/account/deletion.ts`;
 * docs/decisions.md, Data rights) → 200 `{success: true}` with the session cookie cleared. `confirm` must be the
 * account's e-mail (400); an account with a password sends it (401 when missing or wrong; 5 tries per session in
 * 10 minutes, then 429); the last admin: 403.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { signedOutHeaders } from "@/lib/http/cookies.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { EMAIL_MAX } from "@/lib/auth/input.ts";
import { PASSWORD_MAX } from "@/lib/auth/passwords.ts";

const DeleteAccountSchema = z.object({
  confirm: z.string().max(EMAIL_MAX),
  password: z.string().max(PASSWORD_MAX * 4).optional(),
});

export const apiDocs = describeRoute({
  DELETE: {
    summary: "Delete your account",
    description: "Deletes the account, sessions, sign-in links, profile, onboarding and progress; keeps purchases " +
      "(accounting), and what you posted, without your name. The e-mail may sign up again.",
    access: ["session"],
    body: DeleteAccountSchema,
    responses: {
      200: { description: "Deleted; the session cookie is cleared", schema: SuccessSchema },
      401: "Password missing or wrong",
      403: "Make another admin before deleting the last admin account",
      429: "Too many tries",
    },
  },
});

export const handler = define.handlers({
  async DELETE(req, ctx) {
    assertSignedIn(ctx.state);
    const { config } = ctx.state.services;
    const body = await readBody(req, DeleteAccountSchema);
    await ctx.state.services.rateLimits.hit(RATE_LIMITS.deleteAccountPerSession, ctx.state.session.id);
    await deleteAccount(ctx.state.services, ctx.state.user, body);
    return Response.json({ success: true }, { headers: signedOutHeaders(config.secure) });
  },
});
