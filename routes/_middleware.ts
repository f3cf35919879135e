/**
 * The platform's steps for every request, in order (each in its own module under `lib/http/`):
 * request id and client address, security headers, the drain of a page form's body left unread by its answer (around
 * every later step, so a refusal by any of them is drained), one spelling of the path, the path limit, the CSRF origin
 * check, the session, the language of the answer, the body limits (size and stall; after the session and the language,
 * so that a plain form refused as too large gets its page in the person's language), the per-person limit of the
 * route, the mark of pages a phone may keep offline, then the push outbox's drain after a write.
 * Folder middleware below (`admin/`, `api/admin/`) runs after these, then the route.
 */
import { define } from "@/lib/platform/define.ts";
import { requestState } from "@/lib/http/request_state.ts";
import { securityHeaders } from "@/lib/http/security_headers.ts";
import { bodyLimits, pathLimit, unreadFormDrain } from "@/lib/http/limits.ts";
import { canonicalPath } from "@/lib/http/canonical_path.ts";
import { originCheck } from "@/lib/http/csrf.ts";
import { session } from "@/lib/http/session.ts";
import { language } from "@/lib/http/language.ts";
import { personLimits } from "@/lib/http/person_limits.ts";
import { offlineScope } from "@/lib/http/offline_scope.ts";
import { pushDelivery } from "@/lib/http/push_delivery.ts";

export const handler = define.middleware([
  requestState,
  securityHeaders,
  unreadFormDrain,
  canonicalPath,
  pathLimit,
  originCheck,
  session,
  language,
  bodyLimits,
  personLimits,
  offlineScope,
  pushDelivery,
]);
