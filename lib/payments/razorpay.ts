/**
 * The Razorpay implementation of `PaymentGateway` through the official `razorpay` SDK (orders, an order's payments,
 * capture and refunds). The SDK fixes its host to api.razorpay.com; its axios instance is pointed at
 * `RAZORPAY_API_URL` (tests point it at a local fake; docs/decisions.md, Running) and given a timeout, so a hung
 * gateway ends as `UpstreamError` like a failed one; a refusal (the gateway works and says no) is an
 * `UpstreamRefusalError` with what it said (docs/decisions.md, Money operations, "Gateway refusals"). The SDK (~6 MB of memory with its axios) is loaded with the first
 * order, not with the server.
 */
import type RazorpayClient from "razorpay";
import { UpstreamError, UpstreamRefusalError } from "@/lib/errors.ts";
import { REFUSALS, refusalWith } from "@/lib/refusals.ts";
import { onFirstUse } from "@/lib/lazy.ts";
import type { Logger } from "@/lib/log.ts";
import {
  type GatewayOrder,
  type GatewayPayment,
  type GatewayRefund,
  type ListedRefund,
  type PaymentGateway,
  REFUNDS_PAGE,
  signatureMatches,
} from "./gateway.ts";

/** How long an order request may take before checkout gives up, in ms. */
export const ORDER_TIMEOUT_MS = 10_000;

/** The keys and origin of docs/decisions.md, Running. */
export interface RazorpayConfig {
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
  apiUrl: string;
}

/** The part of an axios request config the refund interceptor reads and sets. */
interface AxiosLike {
  url?: string;
  method?: string;
  headers: Record<string, string>;
}

interface OrderEntity {
  id: string;
  amount: number | string;
  currency: string;
}

interface PaymentEntity {
  id: string;
  order_id: string | null;
  status: string;
  amount: number | string;
  currency: string;
}

interface RefundEntity {
  id: string;
  payment_id: string;
  amount: number | string;
  status: string;
  notes?: Record<string, unknown> | unknown[];
  created_at?: number;
}

/** The idempotency key of the full refund of a payment (one per payment). */
export function refundIdempotencyKey(paymentId: string): string {
  return `refund_${paymentId}`;
}

const PAYMENT_STATES = new Set<GatewayPayment["status"]>(["created", "authorized", "captured", "refunded", "failed"]);

function paymentOf(entity: PaymentEntity): GatewayPayment {
  if (typeof entity?.id !== "string" || !PAYMENT_STATES.has(entity.status as GatewayPayment["status"])) {
    throw new TypeError(`unexpected payment ${JSON.stringify(entity)}`);
  }
  return {
    id: entity.id,
    orderId: entity.order_id ?? "",
    status: entity.status as GatewayPayment["status"],
    amount: Number(entity.amount),
    currency: entity.currency,
  };
}

/** `entity` as `listRefunds` answers it; our notes' `purchaseId` when it has one (Razorpay sends empty notes as `[]`). */
function listedRefundOf(entity: RefundEntity): ListedRefund {
  if (typeof entity?.id !== "string" || typeof entity.payment_id !== "string" || !Number.isFinite(entity.created_at)) {
    throw new TypeError(`unexpected refund ${JSON.stringify(entity)}`);
  }
  const notes = entity.notes && !Array.isArray(entity.notes) ? entity.notes : {};
  return {
    id: entity.id,
    paymentId: entity.payment_id,
    amount: Number(entity.amount),
    status: entity.status,
    purchaseId: typeof notes.purchaseId === "string" ? notes.purchaseId : null,
    createdAt: entity.created_at! * 1000,
  };
}

/** The message every gateway failure is answered with (502). */
export const GATEWAY_UNAVAILABLE = REFUSALS.gatewayUnavailable;
/** The refusal of a payment id the gateway has no record of (409). */
export const UNKNOWN_PAYMENT = REFUSALS.gatewayUnknownPayment;
/** The refusal of an order id the gateway has no record of (409). */
export const UNKNOWN_ORDER = REFUSALS.gatewayUnknownOrder;
/** Razorpay's description of an id it has no record of. */
const UNKNOWN_ID = "The id provided does not exist";

/**
 * The gateway's description when `error` (as the SDK rejects) is a refusal: a 400 answer with Razorpay's
 * `BAD_REQUEST_ERROR` (the request was understood and declined, e.g. an unknown id, an uncaptured payment); null for
 * an outage (no answer, a timeout, a 5xx, or a 401/429 about our keys or our rate).
 */
function refusalOf(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const { statusCode, error: body } = error as {
    statusCode?: unknown;
    error?: { code?: unknown; description?: unknown };
  };
  if (statusCode !== 400 || body?.code !== "BAD_REQUEST_ERROR" || typeof body.description !== "string") return null;
  return body.description;
}

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
    (http as unknown as { interceptors: { request: { use(f: (c: AxiosLike) => AxiosLike): void } } })
      .interceptors.request.use((request) => {
        const refund = /\/payments\/([^/]+)\/refund$/.exec(request.url ?? "");
        if (request.method?.toLowerCase() === "post" && refund) {
          request.headers["X-Refund-Idempotency"] = refundIdempotencyKey(decodeURIComponent(refund[1]));
        }
        return request;
      });
    return client;
  });
  /**
   * Runs one SDK call, `what` (for the log). A refusal becomes UpstreamRefusalError saying what the gateway said:
   * `unknown` for an id it does not know, else `refused` (a template of `REFUSALS`) with its words; any other failure
   * (error, timeout, odd answer) is logged and becomes UpstreamError.
   */
  async function call<T>(
    what: string,
    { unknown, refused }: { unknown: string; refused: string },
    run: (client: RazorpayClient) => Promise<T>,
  ): Promise<T> {
    const client = await sdk();
    try {
      return await run(client);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal !== null) {
        log.info(`payment gateway refused ${what}`, { detail: refusal });
        throw new UpstreamRefusalError(refusal === UNKNOWN_ID ? unknown : refusalWith(refused, refusal));
      }
      const detail = error instanceof Error ? error.message : JSON.stringify(error);
      log.warn(`payment gateway ${what} failed`, { detail });
      throw new UpstreamError(GATEWAY_UNAVAILABLE);
    }
  }
  return {
    keyId,
    async createOrder({ amountPaise, currency, receipt, notes }): Promise<GatewayOrder> {
      const client = await sdk();
      let order: OrderEntity;
      try {
        order = await client.orders.create({ amount: amountPaise, currency, receipt, notes }) as OrderEntity;
      } catch (error) {
        // A refused order is our request's fault, not the buyer's: logged as such, answered as an outage.
        const refusal = refusalOf(error);
        const detail = refusal ?? (error instanceof Error ? error.message : JSON.stringify(error));
        log.warn(refusal === null ? "payment gateway order failed" : "payment gateway refused an order", { detail });
        throw new UpstreamError(GATEWAY_UNAVAILABLE);
      }
      if (typeof order?.id !== "string" || Number(order.amount) !== amountPaise) {
        log.warn("payment gateway answered an unexpected order", { order: JSON.stringify(order) });
        throw new UpstreamError(GATEWAY_UNAVAILABLE);
      }
      return { id: order.id, amount: Number(order.amount), currency: order.currency };
    },
    orderPayments(orderId) {
      const refused = REFUSALS.gatewayRefusedOrderPayments;
      return call("order payments", { unknown: UNKNOWN_ORDER, refused }, async (client) => {
        const answer = await client.orders.fetchPayments(orderId) as unknown as { items: PaymentEntity[] };
        if (!Array.isArray(answer?.items)) throw new TypeError("unexpected payment collection");
        return answer.items.map(paymentOf);
      });
    },
    payment(paymentId) {
      const refused = REFUSALS.gatewayRefusedPayment;
      return call("payment", { unknown: UNKNOWN_PAYMENT, refused }, async (client) => {
        return paymentOf(await client.payments.fetch(paymentId) as unknown as PaymentEntity);
      });
    },
    refundsMade({ fromMs, toMs, skip }) {
      const refused = REFUSALS.gatewayRefusedRefundList;
      return call("refund list", { unknown: refused, refused }, async (client) => {
        const answer = await client.refunds.all({
          from: Math.floor(fromMs / 1000),
          to: Math.floor(toMs / 1000),
          count: REFUNDS_PAGE,
          skip,
        }) as unknown as { items: RefundEntity[] };
        if (!Array.isArray(answer?.items)) throw new TypeError("unexpected refund collection");
        return answer.items.map(listedRefundOf);
      });
    },
    capture(paymentId, amountPaise, currency) {
      return call("capture", { unknown: UNKNOWN_PAYMENT, refused: REFUSALS.gatewayRefusedCapture }, async (client) => {
        return paymentOf(await client.payments.capture(paymentId, amountPaise, currency) as unknown as PaymentEntity);
      });
    },
    refund(paymentId, amountPaise, purchaseId) {
      const refused = REFUSALS.gatewayRefusedRefund;
      return call("refund", { unknown: UNKNOWN_PAYMENT, refused }, async (client): Promise<GatewayRefund> => {
        const refund = await client.payments.refund(paymentId, {
          amount: amountPaise,
          notes: { purchaseId },
        }) as unknown as RefundEntity;
        if (typeof refund?.id !== "string") throw new TypeError(`unexpected refund ${JSON.stringify(refund)}`);
        return { id: refund.id, paymentId: refund.payment_id, amount: Number(refund.amount), status: refund.status };
      });
    },
    verifyPaymentSignature({ orderId, paymentId, signature }) {
      return signatureMatches(keySecret, `${orderId}|${paymentId}`, signature);
    },
    verifyWebhookSignature(rawBody, signature) {
      return webhookSecret !== undefined && signatureMatches(webhookSecret, rawBody, signature);
    },
  };
}
