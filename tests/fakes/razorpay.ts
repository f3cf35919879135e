/**
 * A fake Razorpay API on 127.0.0.1 that the real `razorpay` SDK reaches through
 * `RAZORPAY_API_URL`, with HTTP basic auth (key id and secret), amounts in paise:
 * `POST /v1/orders` (refusing amounts under 100 paise with Razorpay's 400 error body),
 * `GET /v1/orders/{id}/payments`, `GET /v1/payments/{id}`, `GET /v1/refunds` (`from`/`to` in seconds by when
 * made, `count` at most 100, `skip`; newest first), `POST /v1/payments/{id}/capture` (an authorized payment, its
 * exact amount) and `POST /v1/payments/{id}/refund` (a captured payment, at most what is left,
 * one refund per `X-Refund-Idempotency` key: a request again with the key answers the refund made only when its body
 * is the same, and is refused otherwise, as Razorpay does). Orders and refunds refuse `notes` beyond Razorpay's
 * limits (15 of them, 256 characters each). `addPayment` puts a payment in any state on an
 * order, as a buyer's payment would; `refundInDashboard` refunds one as support would in Razorpay's dashboard (or a
 * dispute would), without our notes. Tests can make it fail
 * (`mode = "fail"`), hang (`mode = "hang"`) or do what is asked and lose the answer (`mode = "lose"`: a 504), and sign
 * payments and webhooks as Razorpay does.
 * `GET /v1/checkout.js` is a stand-in for Checkout.js for the local demo (`RAZORPAY_CHECKOUT_URL`):
 * its window is the browser's prompt dialog; what the buyer chose is recorded at the fake
 * (`POST /v1/checkout/payments`: a captured or failed payment of the order), which answers the
 * payment signed with the key secret as Razorpay would, so the platform's verification accepts it
 * and refunds and reconciliation find the payment later.
 */
import { Buffer } from "node:buffer";
import { hmacSha256Hex } from "@/lib/payments/gateway.ts";

/** Test keys the fake accepts. */
export const FAKE_KEYS = {
  RAZORPAY_KEY_ID: "rzp_test_fakekey123",
  RAZORPAY_KEY_SECRET: "fake_key_secret_abcdefghijklmnop",
  RAZORPAY_WEBHOOK_SECRET: "fake_webhook_secret_0123456789",
};

/** An order the fake created. */
export interface FakeOrder {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: "created";
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

/** A payment the fake holds. */
export interface FakePayment {
  id: string;
  entity: "payment";
  order_id: string;
  amount: number;
  currency: string;
  status: "created" | "authorized" | "captured" | "refunded" | "failed";
  captured: boolean;
  amount_refunded: number;
  created_at: number;
}

/** A refund the fake made, with the idempotency key it was asked with. */
export interface FakeRefund {
  id: string;
  entity: "refund";
  payment_id: string;
  amount: number;
  currency: string;
  notes: Record<string, string>;
  status: "pending" | "processed";
  idempotencyKey: string | null;
  created_at: number;
}

/** The running fake. */
export interface FakeRazorpay extends AsyncDisposable {
  url: string;
  /** The environment that points the platform at the fake, with the test keys. */
  env: Record<string, string>;
  /** The Checkout.js stand-in, for `RAZORPAY_CHECKOUT_URL`. */
  checkoutUrl: string;
  orders: FakeOrder[];
  payments: FakePayment[];
  refunds: FakeRefund[];
  /** Puts a payment of `orderId` in `status` (amount and currency the order's unless given), as a buyer paying would. */
  addPayment(orderId: string, status: FakePayment["status"], fields?: Partial<FakePayment>): FakePayment;
  /**
   * Refunds `amount` (default all that is left) of the captured payment `paymentId` as the dashboard does: no notes, no
   * idempotency key. @throws Error when the fake would refuse it.
   */
  refundInDashboard(paymentId: string, amount?: number): Promise<FakeRefund>;
  /** `ok` answers, `fail` answers 500, `hang` never answers, `lose` does what is asked and answers 504. */
  mode: "ok" | "fail" | "hang" | "lose";
  /** API requests received (Checkout's stand-in aside), as made: `"GET /v1/orders/{id}/payments"`. */
  calls: string[];
  close(): Promise<void>;
}

function randomId(prefix: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return prefix + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/**
 * The Checkout.js stand-in: `new Razorpay(options).open()` asks, then pays, declines or dismisses. Paying and declining
 * go through the fake (`POST /v1/checkout/payments` at `payUrl`), which records the payment as Razorpay would, so the
 * gateway knows it afterwards (refunds, reconciliation) and signs it with the key secret the page never sees.
 */
function checkoutStandIn(payUrl: string): string {
  return `
window.Razorpay = function (options) {
  var failed = function () {};
  this.on = function (name, handler) { if (name === "payment.failed") failed = handler; };
  this.open = async function () {
    var rupees = (options.amount / 100).toFixed(2);
    var answer = prompt("Fake Razorpay (local demo): pay \\u20b9" + rupees + " for " + options.description +
      "?\\nOK pays; type 'decline' to see a declined card; Cancel closes the window.", "");
    if (answer === null) { if (options.modal && options.modal.ondismiss) options.modal.ondismiss(); return; }
    var declined = answer.trim().toLowerCase() === "decline";
    var res = await fetch(${JSON.stringify(payUrl)}, {
      method: "POST",
      body: JSON.stringify({ key: options.key, order_id: options.order_id, status: declined ? "failed" : "captured" }),
    });
    var answered = await res.json();
    if (!res.ok) { failed({ error: { description: answered.error.description } }); return; }
    if (declined) { failed({ error: { description: "Your card was declined." } }); return; }
    options.handler(answered);
  };
};`;
}

/** Razorpay's limits on `notes`: at most 15 of them, each value at most 256 characters. */
const NOTES_MAX = 15;
const NOTE_MAX_CHARACTERS = 256;

/** Razorpay's refusal of `notes` beyond its limits, or null when they are within them. */
function notesRefusal(notes: unknown): Response | null {
  if (notes === undefined || notes === null) return null;
  if (typeof notes !== "object" || Object.keys(notes).length > NOTES_MAX) {
    return error(400, `The notes may not have more than ${NOTES_MAX} items.`, "notes");
  }
  for (const [key, value] of Object.entries(notes)) {
    if (String(value).length > NOTE_MAX_CHARACTERS) {
      return error(400, `The notes.${key} may not be greater than ${NOTE_MAX_CHARACTERS} characters.`, "notes");
    }
  }
  return null;
}

function error(status: number, description: string, field?: string, headers: Record<string, string> = {}): Response {
  return Response.json({
    error: { code: "BAD_REQUEST_ERROR", description, source: "business", step: "payment_initiation", field },
  }, { status, headers });
}

/** Starts the fake on a free port. */
export function startFakeRazorpay(): FakeRazorpay {
  const orders: FakeOrder[] = [];
  const payments: FakePayment[] = [];
  const refunds: FakeRefund[] = [];
  /** The body each refund's idempotency key was first asked with (amount and notes, as JSON). */
  const idempotentBodies = new Map<string, string>();
  const hanging = new Set<() => void>();
  const auth = "Basic " +
    Buffer.from(`${FAKE_KEYS.RAZORPAY_KEY_ID}:${FAKE_KEYS.RAZORPAY_KEY_SECRET}`).toString("base64");
  const fake: FakeRazorpay = {
    url: "",
    env: {},
    checkoutUrl: "",
    orders,
    payments,
    refunds,
    addPayment(orderId, status, fields = {}) {
      const order = orders.find((o) => o.id === orderId);
      const payment: FakePayment = {
        id: fakePaymentId(),
        entity: "payment",
        order_id: orderId,
        amount: order?.amount ?? 100,
        currency: order?.currency ?? "INR",
        status,
        captured: status === "captured" || status === "refunded",
        amount_refunded: 0,
        created_at: Math.floor(Date.now() / 1000),
        ...fields,
      };
      payments.push(payment);
      return payment;
    },
    async refundInDashboard(paymentId, amount) {
      const payment = payments.find((p) => p.id === paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      const res = refund(payment, amount === undefined ? null : { amount }, null);
      if (!res.ok) throw new Error(`refund refused: ${await res.text()}`);
      return await res.json();
    },
    mode: "ok",
    calls: [],
    async close() {
      for (const release of hanging) release();
      await server.shutdown();
    },
    [Symbol.asyncDispose]: () => fake.close(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/v1/checkout.js") {
      return new Response(checkoutStandIn(`${fake.url}/v1/checkout/payments`), {
        headers: { "content-type": "text/javascript; charset=utf-8" },
      });
    }
    if (req.method === "POST" && url.pathname === "/v1/checkout/payments") return await checkoutPayment(req);
    fake.calls.push(`${req.method} ${url.pathname}`);
    if (fake.mode === "lose") {
      // Done at the gateway, but the answer never reaches the caller (a timeout on the way back).
      await api(req, url);
      return new Response("Gateway Timeout", { status: 504 });
    }
    return await api(req, url);
  });
  /** The API's answer to `req` (at `url`) once the mode lets it through. */
  async function api(req: Request, url: URL): Promise<Response> {
    if (fake.mode === "hang") {
      await new Promise<void>((resolve) => hanging.add(resolve));
      return new Response(null, { status: 503 });
    }
    if (fake.mode === "fail") return error(500, "Something went wrong");
    if (req.headers.get("authorization") !== auth) {
      return Response.json({ error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } }, {
        status: 401,
      });
    }
    const orderPayments = /^\/v1\/orders\/([^/]+)\/payments$/.exec(url.pathname);
    if (req.method === "GET" && orderPayments) {
      const items = payments.filter((p) => p.order_id === orderPayments[1]);
      return Response.json({ entity: "collection", count: items.length, items });
    }
    const onePayment = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && onePayment) {
      const payment = payments.find((p) => p.id === onePayment[1]);
      return payment ? Response.json(payment) : error(400, "The id provided does not exist", "id");
    }
    if (req.method === "GET" && url.pathname === "/v1/refunds") return listRefunds(url.searchParams);
    const action = /^\/v1\/payments\/([^/]+)\/(capture|refund)$/.exec(url.pathname);
    if (req.method === "POST" && action) {
      const payment = payments.find((p) => p.id === action[1]);
      if (!payment) return error(400, "The id provided does not exist", "id");
      const body = await req.json().catch(() => null) as Record<string, unknown> | null;
      return action[2] === "capture"
        ? capture(payment, body)
        : refund(payment, body, req.headers.get("x-refund-idempotency"));
    }
    if (req.method !== "POST" || url.pathname !== "/v1/orders") return error(404, "The requested URL was not found");
    const body = await req.json().catch(() => null) as Record<string, unknown> | null;
    const amount = body?.amount;
    if (typeof amount !== "number" || !Number.isInteger(amount)) return error(400, "The amount must be an integer.");
    if (amount < 100) return error(400, "The amount must be atleast INR 1.00", "amount");
    const refused = notesRefusal(body?.notes);
    if (refused) return refused;
    const order: FakeOrder = {
      id: randomId("order_"),
      entity: "order",
      amount,
      amount_paid: 0,
      amount_due: amount,
      currency: typeof body?.currency === "string" ? body.currency : "INR",
      receipt: typeof body?.receipt === "string" ? body.receipt : null,
      status: "created",
      attempts: 0,
      notes: (body?.notes ?? {}) as Record<string, string>,
      created_at: Math.floor(Date.now() / 1000),
    };
    orders.push(order);
    return Response.json(order);
  }
  /**
   * What the Checkout.js stand-in's window does at Razorpay: `{key, order_id, status: "captured" | "failed"}` (a text
   * body, so the page's request needs no preflight) records a payment of the order; a captured one is answered with
   * the signed fields Checkout.js hands the page.
   */
  async function checkoutPayment(req: Request): Promise<Response> {
    const cors = { "access-control-allow-origin": "*" };
    const body = await req.json().catch(() => null) as Record<string, unknown> | null;
    const order = orders.find((o) => o.id === body?.order_id);
    const status = body?.status;
    if (body?.key !== FAKE_KEYS.RAZORPAY_KEY_ID || !order || (status !== "captured" && status !== "failed")) {
      return error(400, "The id provided does not exist", "order_id", cors);
    }
    const payment = fake.addPayment(order.id, status);
    return Response.json(status === "captured" ? signedPayment(order.id, payment.id) : payment, { headers: cors });
  }
  /** Razorpay's refund list: made between `from` and `to` (seconds, both included), newest first, a page of `count`. */
  function listRefunds(query: URLSearchParams): Response {
    const count = Number(query.get("count") ?? 10);
    if (!Number.isInteger(count) || count < 1 || count > 100) {
      return error(400, "The count must be between 1 and 100.", "count");
    }
    const from = Number(query.get("from") ?? 0);
    const to = Number(query.get("to") ?? Infinity);
    const skip = Number(query.get("skip") ?? 0);
    const items = refunds.filter((r) => r.created_at >= from && r.created_at <= to)
      .toSorted((a, b) => b.created_at - a.created_at)
      .slice(skip, skip + count)
      .map(({ idempotencyKey: _, ...refund }) => refund);
    return Response.json({ entity: "collection", count: items.length, items });
  }
  function capture(payment: FakePayment, body: Record<string, unknown> | null): Response {
    if (payment.status !== "authorized") return error(400, "This payment has already been captured");
    if (body?.amount !== payment.amount) {
      return error(400, "Capture amount must be equal to the amount authorized", "amount");
    }
    payment.status = "captured";
    payment.captured = true;
    return Response.json(payment);
  }
  function refund(payment: FakePayment, body: Record<string, unknown> | null, key: string | null): Response {
    const asked = JSON.stringify({ amount: body?.amount ?? null, notes: body?.notes ?? null });
    const earlier = key ? refunds.find((r) => r.idempotencyKey === key) : undefined;
    if (earlier && idempotentBodies.get(key!) !== asked) {
      return error(400, "Different request with the same idempotency key has already been processed.");
    }
    if (earlier) return Response.json(earlier);
    if (!payment.captured) return error(400, "The payment has not been captured");
    const refused = notesRefusal(body?.notes);
    if (refused) return refused;
    const amount = body?.amount ?? payment.amount - payment.amount_refunded;
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 100) {
      return error(400, "The amount must be atleast INR 1.00", "amount");
    }
    if (amount > payment.amount - payment.amount_refunded) {
      return error(400, "The refund amount provided is greater than amount captured", "amount");
    }
    payment.amount_refunded += amount;
    if (payment.amount_refunded === payment.amount) payment.status = "refunded";
    const made: FakeRefund = {
      id: randomId("rfnd_"),
      entity: "refund",
      payment_id: payment.id,
      amount,
      currency: payment.currency,
      notes: (body?.notes ?? {}) as Record<string, string>,
      status: "pending",
      idempotencyKey: key,
      created_at: Math.floor(Date.now() / 1000),
    };
    refunds.push(made);
    if (key) idempotentBodies.set(key, asked);
    return Response.json(made);
  }
  fake.url = `http://127.0.0.1:${server.addr.port}`;
  fake.env = { ...FAKE_KEYS, RAZORPAY_API_URL: fake.url };
  fake.checkoutUrl = `${fake.url}/v1/checkout.js`;
  return fake;
}

/** A payment id as Razorpay makes them. */
export function fakePaymentId(): string {
  return randomId("pay_");
}

/** The fields Checkout.js hands the page after paying `orderId`, signed with the test key secret. */
export function signedPayment(orderId: string, paymentId = fakePaymentId()) {
  return {
    razorpay_order_id: orderId,
    razorpay_payment_id: paymentId,
    razorpay_signature: hmacSha256Hex(FAKE_KEYS.RAZORPAY_KEY_SECRET, `${orderId}|${paymentId}`),
  };
}

/** A webhook delivery of the raw `body` with event id `eventId`, signed with the webhook secret. */
function signedDelivery(body: string, eventId: string): { body: string; headers: Record<string, string> } {
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-event-id": eventId,
      "x-razorpay-signature": hmacSha256Hex(FAKE_KEYS.RAZORPAY_WEBHOOK_SECRET, body),
    },
  };
}

/**
 * A signed `refund.processed` delivery about `refund` (as the fake made it), its payment entity naming `orderId` when
 * given (Razorpay's always names the payment's order; the platform needs it only for refunds without our notes).
 */
export function refundProcessedDelivery(
  refund: Pick<FakeRefund, "id" | "payment_id" | "amount">,
  { eventId = randomId("evt_"), orderId }: { eventId?: string; orderId?: string } = {},
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    entity: "event",
    account_id: "acc_fake",
    event: "refund.processed",
    contains: ["refund", "payment"],
    payload: {
      refund: { entity: { ...refund, entity: "refund", status: "processed" } },
      payment: {
        entity: {
          id: refund.payment_id,
          entity: "payment",
          status: "refunded",
          ...orderId ? { order_id: orderId } : {},
        },
      },
    },
    created_at: Math.floor(Date.now() / 1000),
  });
  return signedDelivery(body, eventId);
}

/**
 * A webhook delivery of `event` about `orderId` (and payment `paymentId`, a new one unless given, of `amount` in the
 * smallest unit of `currency`, INR unless given, when given): the raw body and its headers, signed with the webhook
 * secret.
 */
export function webhookDelivery(
  { event, orderId, eventId = randomId("evt_"), paymentId = fakePaymentId(), amount, currency = "INR" }: {
    event: "payment.captured" | "order.paid" | "payment.failed";
    orderId: string;
    eventId?: string;
    paymentId?: string;
    amount?: number;
    currency?: string;
  },
): { body: string; headers: Record<string, string> } {
  const payment = {
    entity: {
      id: paymentId,
      entity: "payment",
      order_id: orderId,
      status: event === "payment.failed" ? "failed" : "captured",
      ...amount === undefined ? {} : { amount, currency },
    },
  };
  const payload = event === "order.paid"
    ? { payment, order: { entity: { id: orderId, entity: "order", status: "paid" } } }
    : { payment };
  const body = JSON.stringify({
    entity: "event",
    account_id: "acc_fake",
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
  return signedDelivery(body, eventId);
}
