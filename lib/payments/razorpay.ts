/**
 * The Razorpay implementation of `PaymentGateway` through the official `razorpay` SDK (orders
 * API). The SDK fixes its host to api.razorpay.com; its axios instance is pointed at
 * `RAZORPAY_API_URL` (docs/decisions.md, Running, tests use a local fake) and given a timeout, so a hung
 * gateway ends as `UpstreamError` like a failed one. The SDK (~6 MB of memory with its axios) is
 * loaded with the first order, not with the server.
 */
import type RazorpayClient from "razorpay";
import { UpstreamError } from "@/lib/errors.ts";
import { onFirstUse } from "@/lib/lazy.ts";
import type { Logger } from "@/lib/log.ts";
import { type GatewayOrder, type PaymentGateway, signatureMatches } from "./gateway.ts";

/** How long an order request may take before checkout gives up, in ms. */
export const ORDER_TIMEOUT_MS = 10_000;

/** The keys and origin of docs/decisions.md, Running. */
export interface RazorpayConfig {
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
  apiUrl: string;
}

interface OrderEntity {
  id: string;
  amount: number | string;
  currency: string;
}

/** The message every gateway failure is answered with (502). */
export const GATEWAY_UNAVAILABLE = "Payment gateway unavailable";

/**
 * A Razorpay gateway, or null when `RAZORPAY_KEY_ID` or `RAZORPAY_KEY_SECRET` is unset
 * (paid checkout then answers 503, docs/decisions.md, Running).
 */
export function createRazorpayGateway(
  config: RazorpayConfig,
  log: Logger,
  timeoutMs = ORDER_TIMEOUT_MS,
): PaymentGateway | null {
  const { keyId, keySecret, webhookSecret } = config;
  if (!keyId || !keySecret) return null;
  const sdk = onFirstUse(async (): Promise<RazorpayClient> => {
    const { default: Razorpay } = await import("razorpay");
    const client = new Razorpay({ key_id: keyId, key_secret: keySecret });
    const http = (client as unknown as { api: { rq: { defaults: { baseURL?: string; timeout?: number } } } }).api.rq;
    http.defaults.baseURL = config.apiUrl;
    http.defaults.timeout = timeoutMs;
    return client;
  });
  return {
    keyId,
    async createOrder({ amountPaise, currency, receipt, notes }): Promise<GatewayOrder> {
      const client = await sdk();
      let order: OrderEntity;
      try {
        order = await client.orders.create({ amount: amountPaise, currency, receipt, notes }) as OrderEntity;
      } catch (error) {
        const detail = error instanceof Error ? error.message : JSON.stringify(error);
        log.warn("payment gateway order failed", { detail });
        throw new UpstreamError(GATEWAY_UNAVAILABLE);
      }
      if (typeof order?.id !== "string" || Number(order.amount) !== amountPaise) {
        log.warn("payment gateway answered an unexpected order", { order: JSON.stringify(order) });
        throw new UpstreamError(GATEWAY_UNAVAILABLE);
      }
      return { id: order.id, amount: Number(order.amount), currency: order.currency };
    },
    verifyPaymentSignature({ orderId, paymentId, signature }) {
      return signatureMatches(keySecret, `${orderId}|${paymentId}`, signature);
    },
    verifyWebhookSignature(rawBody, signature) {
      return webhookSecret !== undefined && signatureMatches(webhookSecret, rawBody, signature);
    },
  };
}
