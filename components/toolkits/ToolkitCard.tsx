/**
 * A toolkit in the marketplace: cover, category, title, price with the struck-through original
 * price, the Sale badge, lesson count and duration. Presentational only.
 */
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import { type CoverLoading, lessonFacts } from "@/lib/browser/toolkit_format.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The price line: the price, and the original price struck through when it is higher. */
export function PriceTag({ price, originalPrice }: Pick<Toolkit, "price" | "originalPrice">) {
  const t = useT();
  const discounted = originalPrice !== null && originalPrice > price;
  return (
    <p class="flex items-baseline gap-2">
      <span class="text-xl font-bold text-slate-900">{price === 0 ? t("toolkits.card.free") : t.rupees(price)}</span>
      {discounted && (
        <>
          <s class="text-sm text-slate-700" aria-hidden="true">{t.rupees(originalPrice)}</s>
          <span class="sr-only">{t("toolkits.card.was", { price: t.rupees(originalPrice) })}</span>
        </>
      )}
    </p>
  );
}

/** The Sale badge, shown when the admin turned it on. */
export function SaleBadge() {
  const t = useT();
  return (
    <span class="rounded-full bg-rose-700 px-2.5 py-0.5 text-xs font-semibold text-white">
      {t("toolkits.card.sale")}
    </span>
  );
}

/** A padlock beside a locked lesson (decorative: the text says "Locked"). */
export function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" class="inline h-3.5 w-3.5 fill-current">
      <path d="M10 2a4 4 0 0 0-4 4v2H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1h-1V6a4 4 0 0 0-4-4Zm-2 6V6a2 2 0 1 1 4 0v2H8Z" />
    </svg>
  );
}

export function ToolkitCard({ toolkit, cover = "lazy" }: { toolkit: Toolkit; cover?: CoverLoading }) {
  const t = useT();
  return (
    <article class="flex h-full flex-col overflow-hidden [overflow-wrap:anywhere] rounded-lg border border-slate-200 bg-white shadow-sm">
      {toolkit.coverImageUrl
        ? (
          <img
            src={toolkit.coverImageUrl}
            alt=""
            class="aspect-video w-full object-cover"
            loading={cover === "lazy" ? "lazy" : "eager"}
            fetchpriority={cover === "first" ? "high" : undefined}
          />
        )
        : <div class="aspect-video w-full bg-gradient-to-br from-indigo-100 to-sky-100" aria-hidden="true" />}
      <div class="flex flex-1 flex-col gap-2 p-4">
        <div class="flex items-center justify-between gap-2">
          <p class="text-xs font-semibold uppercase tracking-wide text-indigo-800">
            {toolkit.category ?? t("toolkits.card.toolkit")}
          </p>
          {toolkit.showSaleBadge && <SaleBadge />}
        </div>
        <h2 class="text-lg font-semibold text-slate-900">
          <a href={`/toolkits/${toolkit.id}`} class="hover:text-indigo-700 hover:underline">{toolkit.title}</a>
        </h2>
        <p class="line-clamp-3 text-sm text-slate-700">{toolkit.description}</p>
        <p class="text-sm text-slate-700">{lessonFacts(t, toolkit)}</p>
        <div class="mt-auto pt-2">
          <PriceTag price={toolkit.price} originalPrice={toolkit.originalPrice} />
        </div>
      </div>
    </article>
  );
}
