/**
 * `POST /api/auth/request-password-reset`: the Better Auth client's path for `POST /api/auth/forget-password`
 * (docs/api.md, Authentication).
 */
import { describeRoute } from "@/lib/openapi/describe.ts";
import { apiDocs as forgetDocs } from "./forget-password.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

export { handler } from "./forget-password.ts";

export const apiDocs = describeRoute({
  ...forgetDocs,
  POST: { ...forgetDocs.POST!, summary: "Ask for a password reset e-mail (as `POST /api/auth/forget-password`)" },
});
