/**
 * `/toolkits/{id}`: one toolkit with its highlights, promo video and syllabus (locked lessons
 * show only their title; preview lessons open for anyone), and the checkout island for a
 * signed-in visitor who has not bought it, "Keep offline" for one who has. Locked lesson bodies never reach the page
 * (`toolkitDetail` withholds them). The page's CSP adds Razorpay Checkout.js, and only here.
 * With `SELLER_GSTIN` set and the buyer's state unknown, the checkout asks for it
 * (docs/decisions.md, Money operations, "Place of supply"). `?ended=refund` (a former buyer's old lesson link) says
 * the access ended with the refund.
 *
 * `POST /toolkits/{id}` is the buy and coupon forms without JavaScript: the fields `buyerState`, `couponCode` and
 * `apply` (the coupon form's, which does not ask the state yet), the same checkout as `POST /api/toolkits/{id}`. A free
 * toolkit (a 100 % coupon) is then the buyer's (303 to its lessons, `?free=1`: the lesson says nothing was paid); a
 * paid one has its order, and after Buy the page says that paying needs JavaScript (Razorpay's window), after Apply it
 * shows the coupon in the price; a refusal renders the page again with the problem at its field (a coupon refused after
 * Apply at the coupon field, the code as typed; nothing was being bought, so no "Not bought" above it). A checkout with
 * a coupon made before a reload is resumed (`pendingCheckout`: the coupon still applied, or a sentence that it was
 * released; docs/decisions.md, Toolkits and payments, "A coupon survives a reload").
 */
import { define } from "@/lib/platform/define.ts";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { LockIcon, PriceTag, SaleBadge } from "@/components/toolkits/ToolkitCard.tsx";
import { lessonFacts } from "@/lib/browser/toolkit_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { embedUrlOf } from "@/lib/browser/video_embed.ts";
import ToolkitCheckout, { TOOLKIT_CHECKOUT_TEXT } from "@/islands/ToolkitCheckout.tsx";
import KeepOffline, { KEEP_OFFLINE_TEXT } from "@/islands/KeepOffline.tsx";
import { offlineLessons } from "@/lib/toolkits/offline.ts";
import { checkoutCsp, documentCsp } from "@/lib/platform/csp.ts";
import { type ToolkitDetail, toolkitDetail } from "@/lib/toolkits/learning.ts";
import { canManageCatalog } from "@/lib/toolkits/policy.ts";
import { DomainError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { refusalText } from "@/lib/refusals.ts";
import { couponRefusalKey } from "@/lib/coupons/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import type { Services } from "@/lib/platform/state.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { type PendingCheckout, pendingCheckout } from "@/lib/purchases/pending_checkout.ts";
import { buyerStateOf } from "@/lib/purchases/place_of_supply.ts";
import type { User } from "@/lib/users/users.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import { toolkitCourse } from "@/lib/seo/json_ld.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** The buy form's posts fall under the per-person limit `checkout` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

/** The page's data: the toolkit, and what its checkout asks and says (see the module docstring). */
interface Data extends ToolkitDetail {
  checkout: {
    askState: boolean;
    buyerState?: string;
    /** Whether the post named no state (or one that is not India's) when the checkout asks for it. */
    buyerStateMissing?: boolean;
    /** A coupon that Apply sent without JavaScript and was refused: the code as typed, and the refusal in words. */
    coupon?: { code: string; error: string };
    /**
     * What the form post without JavaScript came to, shown above the checkout: the order is ready (paying needs
     * JavaScript), or the checkout's refusal in the server's words.
     */
    notice?: { kind: "info" } | { kind: "error"; error: string };
    /** The buyer's unfinished checkout with a coupon (see the module docstring). */
    resume?: PendingCheckout | null;
  };
}

/** The signed-in buyer's unfinished checkout of the toolkit with a coupon, or null. */
async function resumed(services: Services, user: User | undefined, detail: ToolkitDetail) {
  if (!user || detail.hasPurchased) return null;
  return await pendingCheckout(services.kv, {
    userId: user.id,
    toolkitId: detail.toolkit.id,
    keyId: services.payments?.keyId ?? "",
  });
}

/** Whether the checkout asks `user` for their state: tax invoices are issued and their onboarding names none. */
async function asksState(
  services: Services,
  user: User | undefined,
  detail: ToolkitDetail,
): Promise<boolean> {
  if (!user || detail.hasPurchased || !services.config.seller.gstin) return false;
  return buyerStateOf({ onboarding: await getOnboardingProfile(services.kv, user.id) }) === null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { services, user } = ctx.state;
    const detail = await toolkitDetail(services.kv, ctx.params.id, user);
    const csp = documentCsp(checkoutCsp(services.config.razorpay.checkoutUrl));
    const checkout = {
      askState: await asksState(services, user, detail),
      resume: await resumed(services, user, detail),
    };
    return ctx.render({ ...detail, checkout }, { headers: { "content-security-policy": csp } });
  },
  async POST(req, ctx) {
    const { services, user } = ctx.state;
    const id = ctx.params.id;
    if (!user) return seeOther(`/sign-in?callbackURL=${encodeURIComponent(`/toolkits/${id}`)}`);
    const { buyerState, couponCode, apply } = await readFormFields(req, ["buyerState", "couponCode", "apply"]);
    const detail = await toolkitDetail(services.kv, id, user);
    const askState = await asksState(services, user, detail);
    const headers = { "content-security-policy": documentCsp(checkoutCsp(services.config.razorpay.checkoutUrl)) };
    const again = async (status: number, checkout: Omit<Data["checkout"], "askState" | "buyerState" | "resume">) =>
      ctx.render({
        ...detail,
        checkout: { askState, buyerState, resume: await resumed(services, user, detail), ...checkout },
      }, { status, headers });
    // Applying a coupon prices the order; the state is asked when buying (which prices it again with the state).
    if (askState && !buyerState && !apply) return again(400, { buyerStateMissing: true });
    try {
      const result = await initiatePurchase(services.kv, {
        payments: services.payments,
        user,
        toolkitId: id,
        buyerState,
        couponCode,
      });
      if (result.free) return seeOther(`/toolkits/${id}/learn?free=1`);
      // An applied coupon shows in the price; only a press of Buy is told that paying needs JavaScript.
      return again(200, apply ? {} : { notice: { kind: "info" } });
    } catch (error) {
      if (error instanceof InvalidInputError && error.fields.some((f) => f.field === "buyerState")) {
        return again(400, { buyerStateMissing: true });
      }
      if (apply && error instanceof DomainError && couponRefusalKey(error.message)) {
        return again(errorResponse(error).status, {
          coupon: { code: couponCode, error: refusalText(ctx.state.t, error) },
        });
      }
      if (error instanceof DomainError && !(error instanceof NotFoundError)) {
        return again(errorResponse(error).status, { notice: { kind: "error", error: error.message } });
      }
      throw error;
    }
  },
});

function PromoVideo({ url, title }: { url: string; title: string }) {
  const t = useT();
  const embed = embedUrlOf(url);
  return embed
    ? (
      <iframe
        src={embed}
        title={t("toolkits.page.promoTitle", { title })}
        class="aspect-video w-full rounded-lg"
        allow="fullscreen; picture-in-picture"
        loading="lazy"
      />
    )
    : (
      <a href={url} rel="noopener noreferrer" target="_blank" class="text-indigo-700 underline">
        {t("toolkits.page.watchPromo")} <span class="sr-only">{t("common.newTab")}</span>
      </a>
    );
}

export default define.page<Data>(function ToolkitPage({ data, state, url }) {
  const t = useT();
  const { toolkit, contentItems, hasPurchased, completedItemIds, checkout } = data;
  const learn = `/toolkits/${toolkit.id}/learn`;
  const signIn = `/sign-in?callbackURL=${encodeURIComponent(url.pathname)}`;
  const canOpen = (item: { isPreview: boolean }) => hasPurchased || item.isPreview || canManageCatalog(state.user);
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-5xl">
      <PageHead
        title={toolkit.title}
        description={toolkit.description}
        image={toolkit.coverImageUrl}
        jsonLd={toolkitCourse(toolkit, state.services.config.appUrl)}
      />
      <a href="/toolkits" class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("toolkits.page.allToolkits")}
      </a>
      <div class="mt-4 grid gap-8 lg:grid-cols-3">
        <div class="space-y-8 [overflow-wrap:anywhere] lg:col-span-2">
          <header class="space-y-3">
            <div class="flex flex-wrap items-center gap-2">
              {toolkit.category && (
                <p class="text-xs font-semibold uppercase tracking-wide text-indigo-800">{toolkit.category}</p>
              )}
              {toolkit.showSaleBadge && <SaleBadge />}
            </div>
            <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{toolkit.title}</h1>
            <p class="whitespace-pre-line text-slate-800">{toolkit.description}</p>
            <p class="text-sm text-slate-700">
              {t("toolkits.page.byline", {
                facts: lessonFacts(t, toolkit),
                name: toolkit.userId === null || toolkit.creatorName === FORMER_MEMBER
                  ? t("common.formerMember")
                  : toolkit.creatorName,
              })}
            </p>
            {!toolkit.isActive && (
              <Notice kind="info" title={t("toolkits.page.draftTitle")}>{t("toolkits.page.draftText")}</Notice>
            )}
            {!hasPurchased && url.searchParams.get("ended") === "refund" && (
              <Notice kind="info" title={t("toolkits.page.refundedTitle")}>{t("toolkits.page.refundedText")}</Notice>
            )}
          </header>

          {toolkit.videoUrl && (
            <section aria-labelledby="promo-heading">
              <h2 id="promo-heading" class="sr-only">{t("toolkits.page.promoHeading")}</h2>
              <PromoVideo url={toolkit.videoUrl} title={toolkit.title} />
            </section>
          )}

          {toolkit.highlights && toolkit.highlights.length > 0 && (
            <section aria-labelledby="highlights-heading">
              <h2 id="highlights-heading" class="text-xl font-semibold text-slate-900">
                {t("toolkits.page.highlights")}
              </h2>
              <ul class="mt-3 grid gap-2 sm:grid-cols-2">
                {toolkit.highlights.map((highlight) => (
                  <li key={highlight} class="flex gap-2 text-slate-800">
                    <span aria-hidden="true" class="text-green-700">✓</span>
                    {highlight}
                  </li>
                ))}
              </ul>
            </section>
          )}

          <section aria-labelledby="syllabus-heading">
            <h2 id="syllabus-heading" class="text-xl font-semibold text-slate-900">
              {t("toolkits.page.syllabus")}
            </h2>
            {contentItems.length === 0
              ? <p class="mt-3 text-slate-700">{t("toolkits.page.preparing")}</p>
              : (
                <ol class="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
                  {contentItems.map((item, index) => (
                    <li key={item.id} class="flex items-start gap-3 px-4 py-3">
                      <span class="w-6 shrink-0 text-sm leading-6 text-slate-700">{index + 1}.</span>
                      <span class="min-w-0 flex-1">
                        {canOpen(item)
                          ? (
                            <a href={`${learn}/${item.id}`} class="font-medium text-indigo-700 underline">
                              {item.title}
                            </a>
                          )
                          : <span class="font-medium text-slate-900">{item.title}</span>}
                        <span class="block text-xs text-slate-700">
                          {t(item.type === "video" ? "toolkits.page.video" : "toolkits.page.article")}
                        </span>
                      </span>
                      <span class="shrink-0 whitespace-nowrap text-xs font-medium leading-6">
                        {completedItemIds.includes(item.id)
                          ? <span class="text-green-800">{t("toolkits.page.completed")}</span>
                          : item.isPreview && !hasPurchased
                          ? (
                            <span class="rounded bg-sky-100 px-2 py-0.5 text-sky-900">
                              {t("toolkits.page.freePreview")}
                            </span>
                          )
                          : !canOpen(item)
                          ? (
                            <span class="inline-flex items-center gap-1 text-slate-700">
                              <LockIcon /> {t("toolkits.page.locked")}
                            </span>
                          )
                          : null}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
          </section>
        </div>

        <aside aria-labelledby="buy-heading" class="lg:sticky lg:top-4 lg:self-start">
          <div class="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <h2 id="buy-heading" class="text-lg font-semibold text-slate-900">
              {t(hasPurchased ? "toolkits.page.owned" : "toolkits.page.get")}
            </h2>
            {toolkit.coverImageUrl && <img src={toolkit.coverImageUrl} alt="" class="w-full rounded-md" />}
            <PriceTag price={toolkit.price} originalPrice={toolkit.originalPrice} />
            {hasPurchased
              ? (
                <>
                  <a
                    href={learn}
                    class="block rounded-md bg-indigo-700 px-4 py-2 text-center font-medium text-white hover:bg-indigo-800"
                  >
                    {t(completedItemIds.length > 0 ? "toolkits.page.continue" : "toolkits.page.start")}
                  </a>
                  <KeepOffline
                    {...offlineLessons(data)}
                    remembered={state.session?.persistent !== false}
                    text={t.island(KEEP_OFFLINE_TEXT)}
                  />
                </>
              )
              : state.user
              ? (
                <>
                  {checkout.notice && (
                    <Notice
                      kind={checkout.notice.kind}
                      title={t(
                        checkout.notice.kind === "error" ? "toolkits.page.notBought" : "toolkits.page.almostThere",
                      )}
                    >
                      {checkout.notice.kind === "error"
                        ? t("common.errors.refused", { error: refusalText(t, checkout.notice.error) })
                        : t("toolkits.page.needsJavaScript")}
                    </Notice>
                  )}
                  <ToolkitCheckout
                    toolkitId={toolkit.id}
                    title={toolkit.title}
                    price={toolkit.price}
                    buyer={{ name: state.user.name, email: state.user.email }}
                    paymentsAvailable={state.services.payments !== null}
                    checkoutScript={state.services.config.razorpay.checkoutUrl}
                    askState={checkout.askState}
                    buyerState={checkout.buyerState}
                    buyerStateError={checkout.buyerStateMissing ? t("toolkits.checkout.stateMissing") : undefined}
                    coupon={checkout.coupon}
                    resume={checkout.resume}
                    text={t.island(TOOLKIT_CHECKOUT_TEXT)}
                  />
                </>
              )
              : (
                <a
                  href={signIn}
                  class="block rounded-md bg-indigo-700 px-4 py-2 text-center font-medium text-white hover:bg-indigo-800"
                >
                  {t("toolkits.page.signInToBuy")}
                </a>
              )}
          </div>
        </aside>
      </div>
    </article>
  );
});
