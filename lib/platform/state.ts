/**
 * The per-request state every handler and page sees as `ctx.state`, and the services the
 * platform runs with. Tests build their own services (in-memory KV, test SMTP server).
 */
import type { Config } from "../../app.config.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { PaymentGateway } from "../payments/gateway.ts";
import type { OAuthService } from "../auth/oauth/providers.ts";
import type { Session } from "../auth/sessions.ts";
import type { User } from "../users/users.ts";

/** What the platform runs with. */
export interface Services {
  config: Config;
  kv: Deno.Kv;
  mailer: Mailer;
  log: Logger;
  /** The payment gateway; null when the `RAZORPAY_*` keys are unset (paid checkout answers 503). */
  payments: PaymentGateway | null;
  /** Social sign-in providers and their call timeout. */
  oauth: OAuthService;
}

/** `ctx.state` of every request. `user` and `session` are set when the session cookie is valid. */
export interface AppState {
  [key: string]: unknown;
  services: Services;
  requestId: string;
  clientIp: string;
  user?: User;
  session?: Session;
}

/** `ctx.state` after `assertSignedIn`. */
export interface SignedInState extends AppState {
  user: User;
  session: Session;
}
