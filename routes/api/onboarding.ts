/**
 * `GET /api/onboarding` → `{profile}` (null until onboarding is completed); `POST` creates or
 * replaces it → `{profile}` (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding). Session required.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { getOnboardingProfile, parseOnboarding, saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ profile: await getOnboardingProfile(ctx.state.services.kv, ctx.state.user.id) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = parseOnboarding(await readJson(req));
    return Response.json({ profile: await saveOnboardingProfile(ctx.state.services.kv, ctx.state.user.id, input) });
  },
});
