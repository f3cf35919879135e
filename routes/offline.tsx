/**
 * `/offline`: what the service worker shows for a page it cannot fetch and never saved (docs/decisions.md, Installable
 * and offline, "Service worker"). It names what is available offline; its island lists it. Precached as a guest sees
 * it, so it shows nobody's name; search engines skip it.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import OfflineContents from "@/islands/OfflineContents.tsx";

export const handler = define.handlers({
  GET: (_req, ctx) => ctx.render(undefined, { headers: { "x-robots-tag": "noindex" } }),
});

export default define.page(function OfflinePage() {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl space-y-4">
      <PageHead title="You are offline" description="This page needs a connection." />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">You are offline</h1>
      <p class="text-slate-700">
        This page needs a connection. What you can open without one: your applications tracker (once you have signed in
        on this device), the lessons of your toolkits you chose to keep offline, and the pages you opened before.
      </p>
      <OfflineContents />
    </section>
  );
});
