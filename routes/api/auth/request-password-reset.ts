/**
 * `POST /api/auth/request-password-reset`: the Better Auth client's path for `POST /api/auth/forget-password`
 * (docs/api.md, Authentication).
 */
import { describeRoute } from "@/lib/openapi/describe.ts";
import { apiDocs as forgetDocs } from "./forget-password.ts";

export { handler } from "./forget-password.ts";

export const apiDocs = describeRoute({
  ...forgetDocs,
  POST: { ...forgetDocs.POST!, summary: "Ask for a password reset e-mail (as `POST /api/auth/forget-password`)" },
});
