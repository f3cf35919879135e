/**
 * Loads the session of the request into `ctx.state.user` and `ctx.state.session` for every
 * page and API route, and sends the cookie again when the session slid forward.
 */
import { readSessionCookie, sessionCookie } from "../lib/http/cookies.ts";
import { readSession } from "../lib/auth/sessions.ts";
import type { AppState } from "../lib/platform/state.ts";
import type { MiddlewareHandler } from "../lib/web/types.ts";

export const handler: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { kv, config } = ctx.state.services;
  const token = readSessionCookie(req, config.secure);
  let renewedCookie: string | undefined;
  if (token) {
    const found = await readSession(kv, token);
    if (found) {
      ctx.state.user = found.user;
      ctx.state.session = found.session;
      if (found.renewed) renewedCookie = sessionCookie(config.secure, token);
    }
  }
  const res = await ctx.next();
  if (renewedCookie && !res.headers.has("set-cookie")) res.headers.append("set-cookie", renewedCookie);
  return res;
};
