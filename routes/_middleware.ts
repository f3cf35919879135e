/**
 * Loads the session of the request into `ctx.state.user` and `ctx.state.session` for every
 * page and API route, and sends the cookie again when the session slid forward.
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { readSession } from "@/lib/auth/sessions.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandlerContext } from "@/lib/web/types.ts";

export const handler = define.middleware((req, ctx) => {
  const token = readSessionCookie(req, ctx.state.services.config.secure);
  return token ? withSession(token, ctx) : ctx.next();
});

async function withSession(token: string, ctx: MiddlewareHandlerContext<AppState>): Promise<Response> {
  const { kv, config } = ctx.state.services;
  const found = await readSession(kv, token);
  if (!found) return await ctx.next();
  ctx.state.user = found.user;
  ctx.state.session = found.session;
  const res = await ctx.next();
  if (found.renewed && !res.headers.has("set-cookie")) {
    res.headers.append("set-cookie", sessionCookie(config.secure, token));
  }
  return res;
}
