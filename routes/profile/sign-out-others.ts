/**
 * `POST /profile/sign-out-others`: the profile's "Sign out everywhere else" form, without JavaScript (docs/decisions.md,
 * Sessions, "Ending sessions"): ends every other session of the person, keeps this one, and answers 303 to
 * `/profile?signedOutOthers=1#sessions`, where the page says so. Guests are sent to sign in, and so is a person whose
 * session ended or expired between the check and the write (nothing was done, so nothing is claimed).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { UnauthenticatedError } from "@/lib/errors.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { seeOther } from "@/lib/http/form_posts.ts";
import { endOtherSessions } from "@/lib/auth/sessions.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, config } = ctx.state.services;
    if (!await endOtherSessions(kv, readSessionCookie(req, config.secure)!)) throw new UnauthenticatedError();
    return seeOther("/profile?signedOutOthers=1#sessions");
  },
});
