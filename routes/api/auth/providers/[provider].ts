/**
 * `DELETE /api/auth/providers/{provider}`: removes a connected sign-in provider from the caller's account; its
 * `apiDocs` below are its description (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Social sign-in,
 * "Removing a connected account").
 */
import { define } from "@/lib/platform/define.ts";
import { unlinkProvider } from "@/lib/auth/oauth/accounts.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { ProviderIdSchema } from "@/lib/auth/oauth/providers.ts";
import { AuthError, NotFoundError } from "@/lib/errors.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/**
 * A signed-in write under the usual origin check (docs/decisions.md, Security); it falls under the per-person limit
 * `profile` (docs/decisions.md, Errors and limits, "Per-person limits").
 */
export const routeOptions: RouteOptions = { personLimit: "profile" };

export const apiDocs = describeRoute({
  section: "Authentication",
  DELETE: {
    summary: "Remove a connected sign-in provider",
    description: "`provider` is `google` or `linkedin`. Every account of that provider linked to the caller's " +
      "account is removed in one write, so it no longer signs in here (a later sign-in with it links again only " +
      "through a verified e-mail address); the same write ends every other session of the account but the caller's, " +
      "so whoever signed in through it is signed out. Refused while it is the only way left to sign in: no password " +
      "and no other provider.",
    access: ["session"],
    responses: {
      200: { description: "Removed", schema: SuccessSchema },
      400: "`PROVIDER_NOT_FOUND`: not a provider's name",
      401: "`UNAUTHORIZED`: no valid session",
      404: `"${REFUSALS.providerNotConnected}"`,
      409: `"${REFUSALS.lastSignIn}"`,
    },
  },
});

export const handler = define.handlers({
  async DELETE(req, ctx) {
    const { kv, config } = ctx.state.services;
    const token = readSessionCookie(req, config.secure);
    if (!ctx.state.user || !token) throw new AuthError("UNAUTHORIZED", "Unauthorized");
    const provider = ProviderIdSchema.safeParse(ctx.params.provider);
    if (!provider.success) throw new AuthError("PROVIDER_NOT_FOUND", "Provider not found");
    if (!await unlinkProvider(kv, { userId: ctx.state.user.id, provider: provider.data, token })) {
      throw new NotFoundError(REFUSALS.providerNotConnected);
    }
    return Response.json({ success: true });
  },
});
