/**
 * A shared phone at 360 px (docs/decisions.md, Installable and offline, "A phone changing hands"): A's session ends
 * without this browser's Sign out (the cookie goes: the browser closed, the session expired), the service worker has
 * kept A's pages and tracker. The next person's sign-in clears them: on a connection slower than the worker's wait for
 * the network B sees B's page, never A's saved copy, and offline A's tracker and private note are gone. Chromium runs
 * on a profile on disk, as a phone's browser keeps its service worker and caches.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { CHROMIUM, signInBrowser } from "@/tests/helpers/browser.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import * as home from "@/routes/index.tsx";
import { chromium } from "playwright-core";

/** How long the home page takes while `slowHome.on` (ms): longer than the worker waits before showing a saved copy. */
const SLOW_MS = 10_000;
/** The home page, slow while `slowHome.on`: a 2G connection's first page after signing in. */
const slowHome = { on: false };
const homeHandler = home.handler as unknown as { GET: (req: Request, ctx: unknown) => Response | Promise<Response> };
const slowHomeModule = {
  ...home,
  handler: {
    async GET(req: Request, ctx: unknown) {
      if (slowHome.on) await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      return await homeHandler.GET(req, ctx);
    },
  },
};

Deno.test("shared phone: the next person's sign-in clears what the phone kept of the last one", async () => {
  await using t = await createTestApp({ listen: true, routes: { "./routes/index.tsx": slowHomeModule } as never });
  const member = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{ title: "Quant Intern at Zeta" }]);
  const a = await createTestUser(t, "user", { name: "Anita Private" });
  const note = "salary ask 40k, interview Tue";
  const put = await t.json("PUT", `/api/me/saved/internships/${listing.id}`, { body: { note }, headers: a.headers });
  assertEquals(put.status, 200);
  await put.body?.cancel();
  const b = await passwordUser(t, { email: "bala@example.com", name: "Bala Next" });
  await saveOnboardingProfile(t.kv, b.id, { persona: "society" });

  const profile = await Deno.makeTempDir();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    viewport: { width: 360, height: 740 },
    isMobile: true,
  });
  try {
    const page = await context.newPage();
    // A, remembered on this phone, opens the home page and the listings: the worker keeps them and A's tracker.
    await signInBrowser(context, t.origin, a);
    await page.goto(`${t.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(`${t.origin}/internships`);
    await page.waitForFunction(async () => (await caches.match("/me/tracker")) !== undefined);
    await page.goto(`${t.origin}/`);
    await page.waitForFunction(async () => (await caches.match("/")) !== undefined);
    // A's session ends without Sign out; B signs in on the same phone, the first page slow.
    await context.clearCookies();
    await page.goto(`${t.origin}/sign-in`);
    await page.getByLabel("E-mail").fill(b.email);
    await page.getByLabel("Password").fill(PASSWORD);
    slowHome.on = true;
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${t.origin}/`, { waitUntil: "commit" });
    // Either B's page arrives, or (before the sign-in cleared the phone) A's saved copy with its notice after 8 s.
    await page.waitForFunction(
      () => document.body?.innerText.includes("Bala") || document.getElementById("offline-notice")?.hidden === false,
      undefined,
      { timeout: SLOW_MS * 3 },
    );
    slowHome.on = false;
    const first = await page.content();
    assert(!first.includes("Anita"), "B is never shown A's saved home page");
    assert(first.includes("Bala"), "B's own page");
    // Offline now, B's phone holds nothing of A's: A's tracker and note are gone.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.goto(`${t.origin}/me/tracker`).catch(() => {});
    const offline = await page.content();
    assert(!offline.includes("Quant Intern at Zeta") && !offline.includes(note), "A's tracker is not on the phone");
    assert(!offline.includes("Anita"));
  } finally {
    slowHome.on = false;
    await context.close();
    await Deno.remove(profile, { recursive: true });
  }
});
