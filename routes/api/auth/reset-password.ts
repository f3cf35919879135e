/**
 * `POST /api/auth/reset-password`: sets a new password with a reset e-mail's token; its `apiDocs` below are its
 * description (docs/api.md, Authentication, "Password reset"; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { resetPasswordWithToken } from "@/lib/auth/password_flows.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/auth/passwords.ts";
import { checkedLater, describeRoute } from "@/lib/openapi/describe.ts";
import { StatusSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const ResetPasswordBody = z.object({
  newPassword: checkedLater(z.string(), { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
  token: z.unknown().optional().meta({ type: "string", description: "The reset token (or `?token=`)" }),
});

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Set a new password with a reset token",
    description: "The token may also come as `?token=`. The password is replaced, the token spent, every session " +
      "of the user ended and a notice that the password changed e-mailed to the account; an account whose address is " +
      "not verified also loses every provider link (whoever made them never proved the address). The password is checked first (400 `PASSWORD_TOO_SHORT` or `PASSWORD_TOO_LONG`), then the " +
      "token (400 `INVALID_TOKEN` when unknown, spent or expired, or sent before the user's sessions were last ended). " +
      "A suspended account's reset is refused before anything is written or mailed: 403 `ACCOUNT_SUSPENDED` (its " +
      "sentence says how to appeal).",
    query: z.object({ token: z.string().optional().describe("The reset token, when the body has none") }),
    body: ResetPasswordBody,
    responses: {
      200: { description: "The password is changed", schema: StatusSchema },
      403: "`ACCOUNT_SUSPENDED`: the account is suspended; nothing was changed",
      409: "Other writes kept changing the account; nothing was changed and the link still works",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const body = await readAuthBody(req, ResetPasswordBody);
    await resetPasswordWithToken(ctx.state.services, body.token ?? ctx.url.searchParams.get("token"), body.newPassword);
    return Response.json({ status: true });
  },
});
