/** `GET /api/auth/get-session`: the Better Auth client's path for `GET /api/auth/session`. */
export { apiDocs, handler } from "./session.ts";
