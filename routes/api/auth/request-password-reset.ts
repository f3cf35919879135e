/** `POST /api/auth/request-password-reset`: the Better Auth client's path for `forget-password`. */
export { apiDocs, handler } from "./forget-password.ts";
