/** `GET /api/auth/get-session`: the Better Auth client's path for `GET /api/auth/session` (docs/api.md, Authentication). */
import { describeRoute } from "@/lib/openapi/describe.ts";
import { apiDocs as sessionDocs } from "./session.ts";

export { handler } from "./session.ts";

export const apiDocs = describeRoute({
  ...sessionDocs,
  GET: { ...sessionDocs.GET!, summary: "The caller's session and user, or null (as `GET /api/auth/session`)" },
});
