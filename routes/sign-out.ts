/**
 * `POST /sign-out`: the header's sign-out form. Ends the session of the cookie (if any), clears the cookie and what
 * this browser kept (`signedOutHeaders`), and answers 303 to `/`, so a reload does not post again. The CSRF origin
 * check of `lib/http/csrf.ts` runs before this handler.
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, signedOutHeaders } from "@/lib/http/cookies.ts";
import { deleteSession } from "@/lib/auth/sessions.ts";

export const handler = define.handlers({
  async POST(req, ctx) {
    const { config, kv } = ctx.state.services;
    const token = readSessionCookie(req, config.secure);
    if (token) await deleteSession(kv, token);
    return new Response(null, {
      status: 303,
      headers: { location: "/", ...signedOutHeaders(config.secure) },
    });
  },
});
