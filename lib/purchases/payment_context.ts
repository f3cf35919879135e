/**
 * What confirming and refunding payments work with (docs/decisions.md, Toolkits and payments): KV, the gateway, the
 * public origin, the clock and the seller, built from the platform's services (`paymentContext`) or by the demo and
 * the benchmarks with their own.
 */
import { deliverSoon } from "@/lib/mail/delivery.ts";
import type { PaymentGateway } from "@/lib/payments/gateway.ts";
import type { Logger } from "@/lib/log.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { SellerConfig } from "./receipts.ts";

/**
 * What confirming and refunding payments work with: KV, the gateway, the public origin (links in e-mails) and, when
 * given, a way to start an e-mail's first delivery try at once (else the outbox job sends it within a minute).
 */
export interface PaymentContext {
  kv: Deno.Kv;
  payments: PaymentGateway | null;
  appUrl: string;
  deliverSoon?(mailId: string): void;
  /** The time of the changes made (default the system clock; the demo's history runs on an earlier one). */
  clock?(): Date;
  /** The seller named on the receipts issued (`SELLER_*`), kept with each receipt. */
  seller?: SellerConfig;
  /** Where what an admin should know is logged (a refund made at the gateway); nothing is logged without it. */
  log?: Logger;
}

/** The time now for `ctx`, ISO. */
export function nowOf(ctx: PaymentContext): string {
  return (ctx.clock?.() ?? new Date()).toISOString();
}

/** The payment context of the platform's services. */
export function paymentContext(services: Services): PaymentContext {
  return {
    kv: services.kv,
    payments: services.payments,
    appUrl: services.config.appUrl,
    deliverSoon: (id) => deliverSoon(services, id),
    seller: services.config.seller,
    log: services.log,
  };
}
