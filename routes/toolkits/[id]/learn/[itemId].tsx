/**
 * `/toolkits/{id}/learn/{itemId}`: the lesson viewer. Buyers and admins read every lesson, anyone
 * a preview lesson; others are sent to the toolkit page (a guest signs in first; a former buyer whose purchase was
 * refunded with `?ended=refund`, so the page says the access ended with the refund). The article
 * HTML was sanitized when it was written; a video plays from its CDN (the page's CSP allows https
 * media) or its YouTube/Vimeo embed. The lesson list, previous/next and, for buyers, the
 * progress bar with "Mark as complete" and "Keep offline"; for anyone else, a free preview ends with the way to buy
 * the whole toolkit. A buyer sent here by the checkout (`?paid=1`) is told the payment went through and where the
 * receipt is ("My toolkits"); one whose coupon covered the whole price (`?free=1`), that nothing was paid.
 *
 * `POST` with `completed` (`true` or `false`) is "Mark as complete" without JavaScript: it records the lesson's
 * progress as `POST /api/toolkits/{id}/progress` does and answers 303 to the lesson (docs/decisions.md, Islands,
 * "Forms work without JavaScript"); a guest is sent to sign in.
 */
import { certificateOf, certificatePath } from "@/lib/certificates/certificates.ts";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { LockIcon } from "@/components/toolkits/ToolkitCard.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { embedUrlOf } from "@/lib/browser/video_embed.ts";
import LessonProgress, { LESSON_PROGRESS_TEXT } from "@/islands/LessonProgress.tsx";
import KeepOffline, { KEEP_OFFLINE_TEXT } from "@/islands/KeepOffline.tsx";
import { offlineLessons } from "@/lib/toolkits/offline.ts";
import { NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { documentCsp, LESSON_CSP } from "@/lib/platform/csp.ts";
import { recordProgress, type ToolkitDetail, toolkitDetail } from "@/lib/toolkits/learning.ts";
import { canReadLesson } from "@/lib/toolkits/policy.ts";
import { purchasesOfToolkit } from "@/lib/purchases/purchases.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `progress` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "progress" };
import type { ContentItem } from "@/lib/toolkits/schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";

interface LessonData extends ToolkitDetail {
  item: ContentItem;
  index: number;
  /** The buyer's certificate page once every lesson is complete (docs/decisions.md, Money operations). */
  certificateUrl: string | null;
}

export const handler = define.handlers<LessonData>({
  async GET(_req, ctx) {
    const viewer = ctx.state.user;
    const { kv } = ctx.state.services;
    const detail = await toolkitDetail(kv, ctx.params.id, viewer);
    const index = detail.contentItems.findIndex((item) => item.id === ctx.params.itemId);
    if (index < 0) throw new NotFoundError(REFUSALS.lessonNotFound);
    const item = detail.contentItems[index];
    if (!canReadLesson(viewer, detail.hasPurchased, item)) {
      if (!viewer) throw new UnauthenticatedError();
      // A lesson link kept from before a refund says why it now opens the sales page.
      const refunded = (await purchasesOfToolkit(kv, { userId: viewer.id, toolkitId: detail.toolkit.id }))
        .some((p) => p.paymentStatus === "refunded");
      const page = `/toolkits/${detail.toolkit.id}${refunded ? "?ended=refund" : ""}`;
      return new Response(null, { status: 302, headers: { location: page } });
    }
    const certificate = viewer && detail.hasPurchased ? await certificateOf(kv, viewer.id, detail.toolkit.id) : null;
    const certificateUrl = certificate ? certificatePath(certificate.id) : null;
    return ctx.render({ ...detail, item, index, certificateUrl }, {
      headers: { "content-security-policy": documentCsp(LESSON_CSP) },
    });
  },
  async POST(req, ctx) {
    const { user, services: { kv } } = ctx.state;
    const here = ctx.url.pathname;
    if (!user) return seeOther(`/sign-in?${new URLSearchParams({ callbackURL: here })}`);
    const { completed } = await readFormFields(req, ["completed"]);
    await recordProgress(kv, {
      toolkitId: ctx.params.id,
      viewer: user,
      contentItemId: ctx.params.itemId,
      completed: completed === "true",
    });
    return seeOther(here);
  },
});

function Video({ url, title }: { url: string; title: string }) {
  const t = useT();
  const embed = embedUrlOf(url);
  return embed
    ? <iframe src={embed} title={title} class="aspect-video w-full rounded-lg" allow="fullscreen; picture-in-picture" />
    : (
      <video controls preload="metadata" class="aspect-video w-full rounded-lg bg-black" src={url}>
        <a href={url}>{t("toolkits.lesson.downloadVideo")}</a>
      </video>
    );
}

export default define.page<LessonData>(function LessonPage({ data, state, url }) {
  const t = useT();
  const { toolkit, contentItems, hasPurchased, completedItemIds, item, index, certificateUrl } = data;
  const base = `/toolkits/${toolkit.id}/learn`;
  const prev = contentItems[index - 1];
  const next = contentItems[index + 1];
  const visible = (i: ContentItem) => i.content !== null || i.cdnVideoUrl !== null;
  const welcome = url.searchParams.get("paid") === "1" ? "paid" : url.searchParams.get("free") === "1" ? "free" : null;
  return (
    <div class="grid gap-8 lg:grid-cols-4">
      <PageHead title={`${item.title} · ${toolkit.title}`} />
      {hasPurchased && welcome && (
        <div class="lg:col-span-4">
          <Notice
            kind="success"
            title={t(welcome === "paid" ? "toolkits.checkout.paidTitle" : "toolkits.checkout.freeTitle")}
          >
            {t.rich(welcome === "paid" ? "toolkits.lesson.paidText" : "toolkits.lesson.freeText", {
              mine: (chunks) => <a href="/toolkits/mine" class="font-medium underline">{chunks}</a>,
            })}
          </Notice>
        </div>
      )}
      <nav aria-label={t("toolkits.lesson.nav")} class="lg:col-span-1">
        <a href={`/toolkits/${toolkit.id}`} class="text-sm text-indigo-700 underline hover:text-indigo-900">
          ← {toolkit.title}
        </a>
        <ol class="mt-3 space-y-1">
          {contentItems.map((lesson, i) => (
            <li key={lesson.id}>
              {visible(lesson)
                ? (
                  <a
                    href={`${base}/${lesson.id}`}
                    aria-current={lesson.id === item.id ? "page" : undefined}
                    class="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-200 aria-[current=page]:bg-indigo-700 aria-[current=page]:text-white"
                  >
                    <span
                      aria-hidden="true"
                      class="w-4"
                      data-lesson-mark={lesson.id}
                      data-lesson-number={String(i + 1)}
                    >
                      {completedItemIds.includes(lesson.id) ? "✓" : i + 1}
                    </span>
                    {lesson.title}
                    <span class="sr-only" hidden={!completedItemIds.includes(lesson.id)}>
                      {t("toolkits.lesson.completedSr")}
                    </span>
                  </a>
                )
                : (
                  <span class="flex items-center gap-2 px-2 py-1.5 text-sm text-slate-700">
                    <span class="w-4">
                      <LockIcon />
                    </span>
                    {lesson.title}
                    <span class="sr-only">{t("toolkits.lesson.lockedSr")}</span>
                  </span>
                )}
            </li>
          ))}
        </ol>
      </nav>

      <article aria-labelledby="page-title" class="space-y-6 lg:col-span-3">
        <header>
          <p class="text-sm text-slate-700">
            {t("toolkits.lesson.position", { number: index + 1, count: contentItems.length })}
          </p>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{item.title}</h1>
        </header>
        {hasPurchased && (
          <LessonProgress
            toolkitId={toolkit.id}
            itemId={item.id}
            lessonIds={contentItems.map((i) => i.id)}
            completedItemIds={completedItemIds}
            nextUrl={next && visible(next) ? `${base}/${next.id}` : null}
            certificateUrl={certificateUrl}
            text={t.island(LESSON_PROGRESS_TEXT)}
          />
        )}
        {hasPurchased && (
          <KeepOffline
            {...offlineLessons(data)}
            remembered={state.session?.persistent !== false}
            text={t.island(KEEP_OFFLINE_TEXT)}
          />
        )}
        {item.type === "video" && item.cdnVideoUrl ? <Video url={item.cdnVideoUrl} title={item.title} /> : (
          <div
            class="lesson-body space-y-4 leading-relaxed text-slate-800"
            // Sanitized against the allowlist when the admin saved it (lib/toolkits/sanitize.ts).
            dangerouslySetInnerHTML={{ __html: item.content ?? "" }}
          />
        )}
        {!hasPurchased && item.isPreview && (
          <aside
            aria-labelledby="buy-toolkit-heading"
            class="space-y-2 rounded-lg border border-indigo-200 bg-indigo-50 p-5"
          >
            <h2 id="buy-toolkit-heading" class="text-lg font-semibold text-slate-900">
              {t("toolkits.lesson.previewOf", { toolkit: toolkit.title })}
            </h2>
            <p class="text-slate-800">
              {toolkit.price > 0
                ? t("toolkits.lesson.getAllPaid", { count: contentItems.length, price: t.rupees(toolkit.price) })
                : t("toolkits.lesson.getAllFree", { count: contentItems.length })}
            </p>
            <a
              href={`/toolkits/${toolkit.id}#buy-heading`}
              class="inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
            >
              {t("toolkits.lesson.getToolkit")}
            </a>
          </aside>
        )}
        <nav
          aria-label={t("toolkits.lesson.prevNext")}
          class="flex justify-between gap-4 border-t border-slate-200 pt-4"
        >
          {prev && visible(prev)
            ? <a href={`${base}/${prev.id}`} rel="prev" class="text-indigo-700 underline">← {prev.title}</a>
            : <span />}
          {next && visible(next)
            ? <a href={`${base}/${next.id}`} rel="next" class="text-indigo-700 underline">{next.title} →</a>
            : <span />}
        </nav>
      </article>
    </div>
  );
});
