/**
 * `/internships` on a 390 px phone is served in its final layout: the filter panel is folded
 * from the first paint (not folded by the script after it), so nothing moves when the islands
 * hydrate (cumulative layout shift under 0.1) and a result card is on the first screen both
 * before the script arrives and after.
 */
import { assert } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { fetchesDrawn, hydrated, openBrowser, trackFetches } from "@/tests/helpers/browser.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";

const PHONE = { width: 390, height: 844 };

/** Records every layout shift (not caused by input) from the start of the document. */
const RECORD_SHIFTS = `
window.__layoutShift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
}).observe({ type: "layout-shift", buffered: true });`;

Deno.test("/internships on a phone: no layout shift on hydration and a result card on the first screen", async () => {
  await using t = await createTestApp({ listen: true });
  const owner = await createTestUser(t, "member");
  await addInternships(
    t,
    owner,
    Array.from({ length: 12 }, (_, i) => ({
      title: `Product Design Intern ${i}`,
      hiringOrganization: `Studio ${i}`,
      link: `https://studio${i}.example.com/jobs`,
      type: "remote",
      stipend: 15000,
      tags: ["design"],
      location: "Bengaluru",
      deadline: "2099-12-31",
    })),
  );
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await context.addInitScript(RECORD_SHIFTS);
  await trackFetches(context);
  const page = await context.newPage();
  // Holds the islands' scripts back, so the page is seen as served before it hydrates.
  const release = Promise.withResolvers<void>();
  await page.route(/\/_build\/.*\.js$/, async (route) => {
    await release.promise;
    await route.continue();
  });

  // Module scripts hold DOMContentLoaded back: wait for the served markup instead.
  await page.goto(`${t.origin}/internships`, { waitUntil: "commit" });
  const firstCard = page.locator("#results-heading ~ ul article").first();
  await page.locator("footer").waitFor({ state: "attached" });
  const before = await firstCard.boundingBox();
  assert(
    before && before.y + before.height <= PHONE.height,
    `first card before hydration at ${JSON.stringify(before)}`,
  );

  release.resolve();
  await hydrated(page);
  // Whatever the islands fetch and draw after hydrating has been drawn (and its shifts recorded).
  await fetchesDrawn(page);
  const after = await firstCard.boundingBox();
  assert(after && after.y + after.height <= PHONE.height, `first card after hydration at ${JSON.stringify(after)}`);
  assert(after.y === before.y, `the first card moved from ${before.y} to ${after.y}`);
  const shift = await page.evaluate(() => (globalThis as unknown as { __layoutShift: number }).__layoutShift);
  assert(shift < 0.1, `cumulative layout shift ${shift}`);
});
