/**
 * `GET /api/onboarding` → `{profile}` (null until onboarding is completed); `POST` creates or
 * replaces it → `{profile}` (specification "Onboarding"; CONTRACT.md §3). Session required.
 */
import { assertSignedIn } from "../../lib/http/guards.ts";
import { readJson } from "../../lib/http/json.ts";
import { getOnboardingProfile, parseOnboarding, saveOnboardingProfile } from "../../lib/onboarding/onboarding.ts";
import type { AppState } from "../../lib/platform/state.ts";
import type { Handlers } from "../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ profile: await getOnboardingProfile(ctx.state.services.kv, ctx.state.user.id) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = parseOnboarding(await readJson(req));
    return Response.json({ profile: await saveOnboardingProfile(ctx.state.services.kv, ctx.state.user.id, input) });
  },
};
