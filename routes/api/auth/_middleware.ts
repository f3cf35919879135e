/**
 * The auth endpoints refuse a write that names another origin even without a session cookie
 * (login CSRF), on top of the origin check every route has; the rules are in `lib/http/csrf.ts`.
 */
import { define } from "@/lib/platform/define.ts";
import { loginOriginCheck } from "@/lib/http/csrf.ts";

export const handler = define.middleware(loginOriginCheck);
