/** `GET /api/auth/get-session`: the Better Auth client's path for `GET /api/auth/session` (docs/api.md, Authentication). */
import { describeRoute } from "@/lib/openapi/describe.ts";
import { apiDocs as sessionDocs } from "./session.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

export { handler } from "./session.ts";

export const apiDocs = describeRoute({
  ...sessionDocs,
  GET: { ...sessionDocs.GET!, summary: "The caller's session and user, or null (as `GET /api/auth/session`)" },
});
