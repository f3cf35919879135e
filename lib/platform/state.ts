/**
 * The per-request state every handler and page sees as `ctx.state`, and the services the
 * platform runs with. Tests build their own services (in-memory KV, test SMTP server).
 */
import type { Config } from "@/app.config.ts";
import type { BackgroundWork } from "./background.ts";
import type { InFlightRequests } from "./in_flight.ts";
import type { RateLimits } from "./rate_limits.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import type { Mailer } from "@/lib/mail/mailer.ts";
import type { PaymentGateway } from "@/lib/payments/gateway.ts";
import type { PushSender } from "@/lib/push/web_push.ts";
import type { GuestPageCache } from "@/lib/http/guest_pages.ts";
import type { OAuthService } from "@/lib/auth/oauth/providers.ts";
import type { Session, SuspendedPerson } from "@/lib/auth/sessions.ts";
import type { User } from "@/lib/users/users.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** What the platform runs with. */
export interface Services {
  config: Config;
  kv: Deno.Kv;
  mailer: Mailer;
  log: Logger;
  /** The payment gateway; null when the `RAZORPAY_*` keys are unset (paid checkout answers 503). */
  payments: PaymentGateway | null;
  /** Web Push; null when the `VAPID_*` keys are unset (push is off). */
  push: PushSender | null;
  /** Social sign-in providers and their call timeout. */
  oauth: OAuthService;
  /** Pages as guests see them, kept per data version (`servePublicPage`). */
  guestPages: GuestPageCache;
  /** Uploaded files (docs/decisions.md, Ungatekeep and banners). */
  files: ObjectStore;
  /** Work requests started without waiting for it (`BackgroundWork`). */
  background: BackgroundWork;
  /** The requests being answered, which long jobs give way to (`InFlightRequests`). */
  requests: InFlightRequests;
  /** The rate limits the routes apply (`RATE_LIMITS`). */
  rateLimits: RateLimits;
}

/**
 * `ctx.state` of every request. `user` and `session` are set when the session cookie is valid; `lang` and `t` are the
 * language the answer is written in and its translator (English until the language step decides, docs/decisions.md,
 * Languages).
 */
export interface AppState {
  [key: string]: unknown;
  services: Services;
  requestId: string;
  /** The client's address as per-address limits count it: IPv4 as it is, IPv6 as its /64 (`lib/http/request_state.ts`). */
  clientIp: string;
  lang: Lang;
  t: Translate;
  user?: User;
  session?: Session;
  /**
   * The SHA-256 of the session cookie's token, the session's KV key (set with `session` by the session step), for the
   * check of a write once its body has arrived (`sessionHolds`).
   */
  sessionHash?: string;
  /**
   * Set when the session cookie is that of a person suspended since it was made (`readSession`), with their language
   * only: only their browser carries it, so the sign-in page tells them the account is suspended, in their language
   * (docs/decisions.md, Admin, "Suspension").
   */
  suspended?: SuspendedPerson;
  /**
   * The signed-in person's unread count (up to `UNREAD_COUNT_MAX`) when the page read it anyway, for the header's bell
   * to show without JavaScript (docs/decisions.md, Notifications, "The bell"); absent on other pages.
   */
  unreadCount?: number;
}

/** `ctx.state` after `assertSignedIn`. */
export interface SignedInState extends AppState {
  user: User;
  session: Session;
}

/**
 * Answers a public page: for a guest from the guest page cache (per language, compressed once for the encoding `req`
 * accepts) while `version` (the version of the data the page shows) is unchanged, else `render()` afresh; a signed-in
 * user always gets `render()`. Only for pages that show a guest nothing of their own (no CSRF-bound form).
 */
export async function servePublicPage(
  req: Request,
  state: AppState,
  url: URL,
  { version, render }: { version: () => Promise<string>; render: () => Response | Promise<Response> },
): Promise<Response> {
  if (state.user) return await render();
  return await state.services.guestPages.serve(
    url.pathname + url.search,
    state.lang,
    await version(),
    render,
    req.headers.get("accept-encoding"),
  );
}
