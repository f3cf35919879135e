/**
 * `POST /profile/remove-provider`: the profile's "Remove" button of a connected account, without JavaScript
 * (docs/decisions.md, Social sign-in, "Removing a connected account"): removes the provider named by the form's
 * `provider` as `DELETE /api/auth/providers/{provider}` does, and answers 303 to
 * `/profile?removedProvider=<provider>#connected-accounts`, where the page says so; a provider already gone answers 303
 * to the section without a word. Refused as the only way left to sign in: the refusal page (409) says why. Guests are
 * sent to sign in.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { unlinkProvider } from "@/lib/auth/oauth/accounts.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { ProviderIdSchema } from "@/lib/auth/oauth/providers.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const provider = ProviderIdSchema.safeParse((await readFormFields(req, ["provider"])).provider);
    if (!provider.success) throw new NotFoundError(REFUSALS.providerNotConnected);
    const { kv, config } = ctx.state.services;
    const token = readSessionCookie(req, config.secure)!;
    const removed = await unlinkProvider(kv, { userId: ctx.state.user.id, provider: provider.data, token });
    return seeOther(
      removed ? `/profile?removedProvider=${provider.data}#connected-accounts` : "/profile#connected-accounts",
    );
  },
});
