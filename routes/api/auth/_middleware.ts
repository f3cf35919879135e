/**
 * CSRF protection of the auth endpoints (specification "Authentication" 5, CONTRACT.md §2),
 * on top of the app-wide origin check: a state-changing auth request that names a foreign
 * `Origin` is refused with 403 `{error: "Invalid origin"}` even without a session cookie, so
 * another site cannot sign a browser in to an account of its choosing (login CSRF).
 * Requests without `Origin` (non-browser clients) pass.
 */
import { define } from "@/lib/platform/define.ts";
import { ForbiddenError } from "@/lib/errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const handler = define.middleware((req, ctx) => {
  const origin = req.headers.get("origin");
  const appOrigin = new URL(ctx.state.services.config.appUrl).origin;
  if (!SAFE_METHODS.has(req.method) && origin !== null && origin !== appOrigin) {
    throw new ForbiddenError("Invalid origin");
  }
  return ctx.next();
});
