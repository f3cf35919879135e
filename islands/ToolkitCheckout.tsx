/**
 * Buying a toolkit (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): an optional coupon that shows the
 * discount and the final price before paying (applying it starts the checkout, `POST /api/toolkits/{id}`, which
 * reserves the coupon use), then Razorpay Checkout.js, loaded from Razorpay on this page only. After paying, the
 * signature goes to `POST /api/toolkits/{id}/verify`; a clear pending state shows meanwhile, then success (on to the
 * lessons), a payment that came second (another order had paid the toolkit) told as refunded, or failure with a retry.
 * A 100 % coupon needs no payment at all. Where the site has no payment gateway (`paymentsAvailable` false, or checkout
 * answering 503), a paid toolkit says that payments are not available instead of offering a payment that cannot happen.
 * When the site issues tax invoices and the buyer's state is unknown (`askState`), the buy form asks for it
 * (`buyerState`, docs/decisions.md, Money operations, "Place of supply"). Without JavaScript both forms post to the
 * page (a coupon that makes it free works there, a refused one comes back at its field as typed; paying needs
 * Razorpay's window). "Try again" after a failed payment opens the payment window again on the same order. `resume`
 * brings back a checkout made before a reload: its coupon applied, or a sentence that it was released
 * (docs/decisions.md, Toolkits and payments, "A coupon survives a reload").
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { couponRefusalKey } from "@/lib/coupons/errors.ts";
import { Notice, SelectField } from "@/components/forms.tsx";
import { INPUT } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { CheckoutResult } from "@/lib/purchases/checkout.ts";
import type { Purchase } from "@/lib/purchases/purchases.ts";
import type { PendingCheckout } from "@/lib/purchases/pending_checkout.ts";
import { INDIAN_STATES } from "@/lib/purchases/indian_states.ts";

/** The messages this island uses (its `text`). */
export const TOOLKIT_CHECKOUT_TEXT = [
  "toolkits.checkout.",
  "toolkits.state.",
  "common.choose",
  "common.tryAgain",
  "common.errors.",
  ...refusalPrefixes(
    "toolkitNotFound",
    "invalidBuyerState",
    "invalidPaymentSignature",
    "couponUnavailable",
    "amountMismatch",
    "alreadyOwned",
    "checkoutBusy",
    "purchaseNotFound",
    "notYourPurchase",
    "gatewayUnavailable",
    "paymentsNotConfigured",
  ),
] as const;

/** Where Razorpay's Checkout.js comes from (the default of `RAZORPAY_CHECKOUT_URL`). */
export const CHECKOUT_SCRIPT = "https://checkout.razorpay.com/v1/checkout.js";

interface RazorpayResponse {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

interface RazorpayInstance {
  open(): void;
  on(event: "payment.failed", handler: (response: { error?: { description?: string } }) => void): void;
}

type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

/**
 * Where the checkout stands. `paidTwice`: the payment went through after another order (another tab's) had paid the
 * toolkit, so it grants nothing and is owed back (docs/decisions.md, Toolkits and payments, "A failed checkout is taken
 * up again").
 */
type Phase = "ready" | "starting" | "paying" | "confirming" | "paid" | "paidTwice" | "free" | "failed";

let scriptPromise: Promise<RazorpayConstructor> | null = null;

function loadCheckout(src: string): Promise<RazorpayConstructor> {
  const existing = (globalThis as { Razorpay?: RazorpayConstructor }).Razorpay;
  if (existing) return Promise.resolve(existing);
  scriptPromise ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve((globalThis as { Razorpay?: RazorpayConstructor }).Razorpay!);
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error("checkout script"));
    };
    document.head.append(script);
  });
  return scriptPromise;
}

/**
 * Props: the toolkit, its price in rupees, the buyer for the payment form's prefill, whether the
 * site takes payments (gateway keys configured), the Checkout.js to load (the toolkit page's
 * CSP allows its origin), whether to ask the buyer's state for the tax invoice, the state
 * and its problem and a refused coupon as the page's form post left them, and the messages (`TOOLKIT_CHECKOUT_TEXT`).
 */
export interface ToolkitCheckoutProps {
  toolkitId: string;
  title: string;
  price: number;
  buyer: { name: string; email: string };
  paymentsAvailable: boolean;
  checkoutScript: string;
  askState: boolean;
  buyerState?: string;
  buyerStateError?: string;
  /** The buyer's unfinished checkout with a coupon, found again after a reload. */
  resume?: PendingCheckout | null;
  /** A coupon refused after the page's Apply without JavaScript: the code as typed and the refusal, at the field. */
  coupon?: { code: string; error: string };
  text: IslandText;
}

const BUTTON = "inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 font-medium " +
  "disabled:cursor-not-allowed disabled:opacity-70";

export default function ToolkitCheckout(
  {
    toolkitId,
    title,
    price,
    buyer,
    paymentsAvailable,
    checkoutScript,
    askState,
    buyerState = "",
    buyerStateError = "",
    resume = null,
    coupon,
    text,
  }: ToolkitCheckoutProps,
) {
  const t = translatorOf(text);
  // Each state named in the page's language (the value is its name as the GST portal writes it), in that order.
  const stateChoices = useMemo(
    () =>
      INDIAN_STATES.map((state) => ({ value: state.name, label: t.dynamic(`toolkits.state.${state.code}`) }))
        .sort((a, b) => a.label.localeCompare(b.label, t.locale)),
    [t],
  );
  const hydrated = useHydrated();
  const [payments, setPayments] = useState(paymentsAvailable);
  const [code, setCode] = useState(coupon?.code ?? resume?.code ?? "");
  const [applied, setApplied] = useState<{ code: string; quote: CheckoutResult } | null>(
    resume?.quote ? { code: resume.code, quote: resume.quote } : null,
  );
  const [couponError, setCouponError] = useState(coupon?.error ?? "");
  const [couponNote, setCouponNote] = useState(
    resume && !resume.quote ? t(`toolkits.checkout.released.${resume.released}`, { code: resume.code }) : "",
  );
  const [phase, setPhase] = useState<Phase>("ready");
  const [error, setError] = useState("");
  const [state, setState] = useState(buyerState);
  const [stateError, setStateError] = useState(buyerStateError);
  const status = useRef<HTMLDivElement>(null);
  const lastQuote = useRef<CheckoutResult | null>(null);
  const learnUrl = `/toolkits/${encodeURIComponent(toolkitId)}/learn`;

  useEffect(() => {
    if (phase === "paid" || phase === "free") setTimeout(() => location.assign(`${learnUrl}?${phase}=1`), 1200);
    if (phase !== "ready") status.current?.focus();
  }, [phase]);

  /** Starts checkout with `couponCode` and the state chosen; remembers which state the quote was made with. */
  const quotedState = useRef(resume?.quote ? resume.buyerState : "");
  const start = async (couponCode: string) => {
    const result = await fetchJson<CheckoutResult>(`/api/toolkits/${encodeURIComponent(toolkitId)}`, {
      body: { ...couponCode ? { couponCode } : {}, ...state ? { buyerState: state } : {} },
    });
    if (result.ok) quotedState.current = state;
    return result;
  };

  const apply = async (event: Event) => {
    event.preventDefault();
    const wanted = code.trim();
    if (!wanted) {
      setCouponError(t("toolkits.checkout.enterCoupon"));
      return;
    }
    setPhase("starting");
    setCouponError("");
    setCouponNote("");
    const result = await start(wanted);
    setPhase("ready");
    if (!result.ok) {
      const refusal = couponRefusalKey(result.apiError);
      setCouponError(refusal ? t(refusal) : failureMessage(t, result));
      setApplied(null);
      return;
    }
    setApplied({ code: wanted.toUpperCase(), quote: result.data });
    lastQuote.current = null;
    if (result.data.free) setPhase("free");
  };

  const pay = async (event?: Event) => {
    event?.preventDefault();
    setError("");
    if (askState && !state) {
      setStateError(t("toolkits.checkout.stateMissing"));
      document.getElementById("buyer-state")?.focus();
      return;
    }
    setStateError("");
    setPhase("starting");
    let quote = applied?.quote ?? lastQuote.current;
    // A quote made before the state was chosen (or with another one) is made again, so the invoice names it.
    if (quote && quotedState.current !== state) quote = null;
    if (!quote) {
      const result = await start(applied?.code ?? "");
      if (!result.ok && result.status === 503) {
        setPayments(false);
        setPhase("ready");
        return;
      }
      if (!result.ok) {
        setPhase("failed");
        setError(failureMessage(t, result));
        return;
      }
      quote = result.data;
      if (applied) setApplied({ ...applied, quote });
      else lastQuote.current = quote;
    }
    if (quote.free) {
      setPhase("free");
      return;
    }
    let Razorpay: RazorpayConstructor;
    try {
      Razorpay = await loadCheckout(checkoutScript);
    } catch {
      setPhase("failed");
      setError(t("toolkits.checkout.scriptFailed"));
      return;
    }
    const checkout = new Razorpay({
      key: quote.key,
      amount: quote.order!.amount,
      currency: quote.order!.currency,
      order_id: quote.order!.id,
      name: "Career Community",
      description: title,
      prefill: buyer,
      handler: async (response: RazorpayResponse) => {
        setPhase("confirming");
        const verified = await fetchJson<{ purchase: Purchase }>(
          `/api/toolkits/${encodeURIComponent(toolkitId)}/verify`,
          { body: response },
        );
        // The purchase names the order that paid it: another one means this payment came second.
        if (verified.ok) {
          setPhase(verified.data.purchase.gatewayOrderId === response.razorpay_order_id ? "paid" : "paidTwice");
        } else {
          setPhase("failed");
          setError(failureMessage(t, verified));
        }
      },
      modal: { ondismiss: () => setPhase((p) => (p === "paying" ? "ready" : p)) },
    });
    checkout.on("payment.failed", (response) => {
      setPhase("failed");
      setError(response.error?.description ?? t("toolkits.checkout.notThrough"));
    });
    setPhase("paying");
    checkout.open();
  };

  // A failed payment leaves its order open at the gateway, so the retry opens the payment window again on the same
  // order (with the coupon still applied); a new checkout starts only when there was none.
  const retry = () => pay();

  const quote = applied?.quote;
  const busy = !hydrated || phase === "starting" || phase === "paying" || phase === "confirming";
  const toPay = quote ? quote.finalPrice : price;

  if (phase === "paid" || phase === "free" || phase === "paidTwice") {
    return (
      <div ref={status} tabIndex={-1} class="space-y-3">
        <Notice kind={phase === "paidTwice" ? "info" : "success"} title={t(`toolkits.checkout.${phase}Title`)}>
          {t(`toolkits.checkout.${phase}Text`)}
        </Notice>
        <a href={learnUrl} class={`${BUTTON} bg-indigo-700 text-white hover:bg-indigo-800`}>
          {t("toolkits.checkout.startLearning")}
        </a>
      </div>
    );
  }

  return (
    <div class="space-y-4">
      <form
        method="post"
        action={`/toolkits/${encodeURIComponent(toolkitId)}`}
        onSubmit={apply}
        class="space-y-2"
        noValidate
      >
        <input type="hidden" name="apply" value="1" />
        <label for="coupon-code" class="block text-sm font-medium text-slate-800">
          {t("toolkits.checkout.couponLabel")}
        </label>
        <div class="flex gap-2">
          <input
            id="coupon-code"
            name="couponCode"
            value={code}
            maxLength={40}
            autocomplete="off"
            aria-invalid={couponError ? "true" : undefined}
            aria-describedby={couponError ? "coupon-code-error" : undefined}
            onInput={(e) => setCode(e.currentTarget.value)}
            class={`${INPUT} uppercase`}
          />
          <button
            type="submit"
            disabled={hydrated && busy}
            class={`${BUTTON} mt-1 border border-slate-400 bg-white text-slate-800 hover:bg-slate-100`}
          >
            {t("toolkits.checkout.apply")}
          </button>
        </div>
        {couponError && <p id="coupon-code-error" class="text-sm font-medium text-red-700">{couponError}</p>}
        {couponNote && <p role="status" class="text-sm font-medium text-amber-900">{couponNote}</p>}
      </form>

      {quote && (
        <dl
          class="space-y-1 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
          aria-live="polite"
        >
          <div class="flex justify-between">
            <dt>{t("toolkits.checkout.price")}</dt>
            <dd>{t.rupees(price)}</dd>
          </div>
          <div class="flex justify-between">
            <dt>{t("toolkits.checkout.coupon", { code: applied!.code })}</dt>
            <dd>−{t.rupees(quote.discountAmount)}</dd>
          </div>
          <div class="flex justify-between font-semibold">
            <dt>{t("toolkits.checkout.youPay")}</dt>
            <dd>{t.rupees(quote.finalPrice)}</dd>
          </div>
        </dl>
      )}

      <div ref={status} tabIndex={-1} role="status" aria-live="polite" class="text-sm text-slate-800">
        {phase === "starting" && t("toolkits.checkout.preparing")}
        {phase === "paying" && t("toolkits.checkout.paying")}
        {phase === "confirming" && t("toolkits.checkout.confirming")}
      </div>

      {!payments && toPay > 0
        ? (
          <Notice kind="info" title={t("toolkits.checkout.unavailableTitle")}>
            {t("toolkits.checkout.unavailableText")}
          </Notice>
        )
        : phase === "failed"
        ? (
          <div class="space-y-3">
            <Notice kind="error" title={t("toolkits.checkout.failedTitle")}>{error}</Notice>
            <button type="button" onClick={retry} class={`${BUTTON} bg-indigo-700 text-white hover:bg-indigo-800`}>
              {t("common.tryAgain")}
            </button>
          </div>
        )
        : (
          <form method="post" action={`/toolkits/${encodeURIComponent(toolkitId)}`} onSubmit={pay} class="space-y-3">
            {applied && <input type="hidden" name="couponCode" value={applied.code} />}
            {askState && (
              // The shared field reads its words (its "Choose…") from the island's messages.
              <IslandTextProvider text={text}>
                <SelectField
                  id="buyer-state"
                  name="buyerState"
                  label={t("toolkits.checkout.stateLabel")}
                  hint={t("toolkits.checkout.stateHint")}
                  options={stateChoices}
                  value={state}
                  error={stateError}
                  onChange={(value) => {
                    setState(value);
                    setStateError("");
                  }}
                />
              </IslandTextProvider>
            )}
            <button
              type="submit"
              disabled={hydrated && busy}
              aria-busy={busy && hydrated ? "true" : undefined}
              class={`${BUTTON} w-full bg-indigo-700 text-white hover:bg-indigo-800`}
            >
              {phase === "confirming"
                ? t("toolkits.checkout.confirmingButton")
                : t("toolkits.checkout.buy", { price: t.rupees(toPay) })}
            </button>
          </form>
        )}
      {payments && <p class="text-xs text-slate-700">{t("toolkits.checkout.secure")}</p>}
    </div>
  );
}
