/**
 * `DELETE /api/me`: deletes the caller's account (`lib/account/deletion.ts`); its `apiDocs` below are its description
 * (docs/api.md, Data rights; docs/decisions.md, Data rights).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { signedOutHeaders } from "@/lib/http/cookies.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { BUSY, describeRoute, perWindow } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import { CHOOSE_PASSWORD_TO_DELETE, deleteAccount, LAST_ADMIN, SIGN_IN_AGAIN } from "@/lib/account/deletion.ts";
import { EMAIL_MAX } from "@/lib/auth/input.ts";
import { PASSWORD_MAX } from "@/lib/auth/passwords.ts";

const DeleteAccountSchema = z.object({
  confirm: z.string().max(EMAIL_MAX),
  password: z.string().max(PASSWORD_MAX * 4).optional(),
});

export const apiDocs = describeRoute({
  section: "Data rights",
  DELETE: {
    summary: "Delete your account",
    description: "`confirm` must be the account's e-mail address; an account with a password also sends it, and one " +
      "without needs a session signed in within the last 10 minutes, through a login at the provider as recent when " +
      "the provider tells its time (a fresh social sign-in, `fresh=1`); a sign-in whose provider did not tell it (no " +
      "`auth_time`) never counts, and such an account chooses a password (`forget-password`) and sends it. Deletes " +
      "the account, sessions, sign-in links, profile, onboarding and progress; keeps purchases (accounting), and what " +
      "you posted, without your name. A verified address is sent a notice of the deletion, whose outbox record goes " +
      "once it is sent. The session cookie is cleared; the e-mail may sign up again. The answer comes once the " +
      "account is gone (it cannot sign in, its sessions are void); the rest is deleted or anonymized right after, " +
      "in the background, and a cleanup step that fails is finished by the account-deletions job.",
    access: ["session"],
    body: DeleteAccountSchema,
    responses: {
      200: { description: "Deleted; the session cookie is cleared", schema: SuccessSchema },
      400: "`confirm` is not the account's e-mail address",
      401: "Password missing or wrong (or no session)",
      403: `"${LAST_ADMIN}", "${SIGN_IN_AGAIN}", or "${CHOOSE_PASSWORD_TO_DELETE}" (or a write from another origin)`,
      429: `More than ${perWindow(RATE_LIMITS.deleteAccountPerSession)} tries per session`,
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async DELETE(req, ctx) {
    assertSignedIn(ctx.state);
    const { config } = ctx.state.services;
    const body = await readBody(req, DeleteAccountSchema);
    await ctx.state.services.rateLimits.hit(RATE_LIMITS.deleteAccountPerSession, ctx.state.session.id);
    await deleteAccount(ctx.state.services, ctx.state, body);
    return Response.json({ success: true }, { headers: signedOutHeaders(config.secure) });
  },
});
