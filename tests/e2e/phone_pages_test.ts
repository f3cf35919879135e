/**
 * Every page on a 360 px phone, signed in: each page of `routes/` (found in the route manifest, so a new page fails
 * this test until it is listed here) opened by the people who see it (a student, a member, an admin) over the demo
 * data, must fit the phone (`tests/helpers/phone.ts`: no sideways scroll, nothing sticking out or hidden
 * off-screen, no short word broken mid-word), load no image of its first screen lazily and pass the axe-core check;
 * so must the header's menu, the bell's panel and the delete dialogs when open. The header also fits from tablets up
 * with a long name, the admin pages fit at 1024 px (where their tables stop stacking), and the first toolkit cover is
 * fetched first.
 */
import type { BrowserContext, Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import {
  fetchesDrawn,
  openBrowser,
  seriousA11yViolations,
  signInBrowser,
  trackFetches,
} from "@/tests/helpers/browser.ts";
import { layoutDefects, lazyFirstScreenImages, PHONE, phoneContext } from "@/tests/helpers/phone.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { withDemoSeller } from "@/lib/demo/seller.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { issueTokenOps } from "@/lib/auth/verification.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { listContentItems } from "@/lib/toolkits/catalog.ts";
import { routePattern } from "@/lib/web/routes.ts";
import manifest from "@/routes.gen.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";
import { answersFor, QUESTIONS } from "@/tests/fixtures/applications.ts";
import { putResume } from "@/tests/fixtures/resumes.ts";

/** Who opens a page: demo accounts (`lib/demo/accounts.ts`). Rohan bought a toolkit and finished it. */
const PEOPLE = {
  student: "sara@demo.careers",
  learner: "rohan@demo.careers",
  member: "member@demo.careers",
  admin: "admin@demo.careers",
} as const;
type Person = keyof typeof PEOPLE;

/** The ids a page's path needs, read from the demo data. */
interface DemoIds {
  internship: string;
  ownInternship: string;
  /** The member's internship that takes applications here, with screening questions. */
  platformInternship: string;
  opportunity: string;
  /** Sara's opportunity that review rejected, with its reason. */
  rejectedOpportunity: string;
  post: string;
  toolkit: string;
  ownedToolkit: string;
  lesson: string;
  receipt: string;
  /** Sara's credit note (the demo seller's receipts are tax invoices). */
  creditNote: string;
  certificate: string;
  organization: string;
  organizationId: string;
  /** A reported listing or post, as the admin's report list names it. */
  reported: { kind: string; targetId: string };
  /** A live verification link's token (Nisha's), for its confirm page. */
  verificationToken: string;
}

/**
 * Every page route (by its pattern) with the paths to open and who opens them. A page with controls only some people
 * get (an admin's on a listing) is opened by them too.
 */
function pagesOf(ids: DemoIds): Record<string, { paths: string[]; by: Person[] }> {
  const student = (...paths: string[]) => ({ paths, by: ["student"] as Person[] });
  const admin = (...paths: string[]) => ({ paths, by: ["admin"] as Person[] });
  return {
    "/": student("/"),
    "/404": student("/no-such-page"),
    "/500": student(),
    "/admin": admin("/admin"),
    "/admin/api-keys": admin("/admin/api-keys"),
    "/admin/banners": admin("/admin/banners"),
    "/admin/comments": admin("/admin/comments"),
    "/admin/coupons": admin("/admin/coupons"),
    "/admin/internships": admin("/admin/internships"),
    "/admin/jobs": admin("/admin/jobs"),
    "/admin/log": admin("/admin/log", "/admin/log?action=coupon.create"),
    "/admin/moderation": admin("/admin/moderation", "/admin/moderation?status=rejected"),
    "/admin/opportunities": admin("/admin/opportunities"),
    "/admin/organizations": admin("/admin/organizations"),
    "/admin/organizations/:id": admin(`/admin/organizations/${ids.organizationId}`),
    "/admin/outbox": admin("/admin/outbox"),
    "/admin/purchases": admin("/admin/purchases"),
    "/admin/reports": admin("/admin/reports"),
    "/admin/reports/:kind/:targetId": admin(`/admin/reports/${ids.reported.kind}/${ids.reported.targetId}`),
    "/admin/toolkits": admin("/admin/toolkits"),
    "/admin/toolkits/:id": admin(`/admin/toolkits/${ids.toolkit}`),
    "/admin/toolkits/new": admin("/admin/toolkits/new"),
    "/admin/ungatekeep": admin("/admin/ungatekeep"),
    "/admin/ungatekeep/:id": admin(`/admin/ungatekeep/${ids.post}`),
    "/admin/ungatekeep/new": admin("/admin/ungatekeep/new"),
    "/admin/users": admin("/admin/users"),
    "/api/docs": student("/api/docs"),
    "/certificates/:id": student(`/certificates/${ids.certificate}`),
    "/check-inbox": student("/check-inbox?email=aparna.venkataraman%40example.com"),
    "/contact": student("/contact"),
    "/forgot-password": student("/forgot-password"),
    "/internships": student("/internships", "/internships?types=remote"),
    "/internships/:id": { paths: [`/internships/${ids.internship}`], by: ["student", "admin"] },
    "/internships/:id/apply": student(
      `/internships/${ids.platformInternship}/apply`,
      `/internships/${ids.internship}/apply`,
    ),
    "/internships/:id/applicants": {
      paths: [`/internships/${ids.platformInternship}/applicants`],
      by: ["member", "admin"],
    },
    "/internships/:id/edit": { paths: [`/internships/${ids.ownInternship}/edit`], by: ["member"] },
    "/internships/mine": { paths: ["/internships/mine"], by: ["member"] },
    "/internships/new": { paths: ["/internships/new"], by: ["student", "member"] },
    "/me/alerts": student("/me/alerts"),
    "/me/data": { paths: ["/me/data"], by: ["student", "learner"] },
    "/me/notifications": { paths: ["/me/notifications"], by: ["student", "admin"] },
    "/me/settings": student("/me/settings"),
    "/me/tracker": student("/me/tracker"),
    "/offline": student("/offline"),
    "/onboarding": student("/onboarding"),
    "/opportunities": student("/opportunities"),
    "/opportunities/:id": { paths: [`/opportunities/${ids.opportunity}`], by: ["student", "admin"] },
    "/opportunities/:id/edit": student(`/opportunities/${ids.rejectedOpportunity}/edit`),
    "/opportunities/mine": student("/opportunities/mine"),
    "/opportunities/new": student("/opportunities/new"),
    "/organizations/:slug": student(`/organizations/${ids.organization}`),
    "/organizations/claim/:token": student("/organizations/claim/an-unknown-token"),
    "/privacy": student("/privacy"),
    "/profile": student("/profile"),
    "/profile/delete": student("/profile/delete"),
    "/purchases/:id/receipt": { paths: [ids.receipt], by: ["learner"] },
    "/purchases/:id/credit-notes/:number": { paths: [ids.creditNote], by: ["student"] },
    "/refunds": student("/refunds"),
    "/report": student(`/report?kind=internship&id=${ids.internship}`),
    "/reset-password": student("/reset-password", "/reset-password?done=1"),
    "/sign-in": student("/sign-in"),
    "/sign-up": student("/sign-up"),
    "/terms": student("/terms"),
    "/toolkits": student("/toolkits"),
    "/toolkits/:id": {
      paths: [`/toolkits/${ids.toolkit}`, `/toolkits/${ids.ownedToolkit}`],
      by: ["student", "learner", "admin"],
    },
    "/toolkits/:id/learn/:itemId": { paths: [`/toolkits/${ids.ownedToolkit}/learn/${ids.lesson}`], by: ["learner"] },
    "/toolkits/mine": { paths: ["/toolkits/mine"], by: ["learner"] },
    "/ungatekeep": student("/ungatekeep"),
    "/ungatekeep/:id": { paths: [`/ungatekeep/${ids.post}`], by: ["student", "admin"] },
    "/unsubscribe/:token": student("/unsubscribe/an-unknown-token"),
    "/verify-email": student(`/verify-email?token=${ids.verificationToken}`, "/verify-email?token=an-unknown-token"),
  };
}

/** The URL pattern of every page module in the route manifest (a module with a default export), `_404` as "/404". */
function pagePatterns(): string[] {
  return Object.entries(manifest.routes)
    .filter(([file, module]) => "default" in module && !/\/_(app|layout)\.tsx$/.test(file))
    .map(([file]) => routePattern(file.replace(/\/_(404|500)\.tsx$/, "/$1.tsx")).pattern)
    .sort();
}

async function json(t: TestApp, path: string, cookie: string) {
  const res = await t.fetch(path, { headers: { cookie } });
  assertEquals(res.status, 200, `GET ${path}`);
  return await res.json();
}

/** Reads the ids of `DemoIds` through the API, as the people who see them. */
async function demoIds(t: TestApp, cookies: Record<Person, string>): Promise<DemoIds> {
  const purchases = (await json(t, "/api/purchases", cookies.learner)).purchases;
  const owned = purchases.find((p: { receiptUrl: string | null }) => p.receiptUrl);
  const ownedToolkit = owned.toolkit.id;
  const [lesson] = await listContentItems(t.kv, ownedToolkit);
  const toolkits = (await json(t, "/api/admin/toolkits", cookies.admin)).toolkits;
  const [organization] = (await json(t, "/api/admin/organizations?verified=true", cookies.admin)).organizations;
  const posted = await t.json("POST", "/api/internships", {
    body: internshipBody({ applyMode: "platform", questions: QUESTIONS }),
    headers: { cookie: cookies.member },
  });
  assertEquals(posted.status, 201, "the member posts an internship taking applications here");
  const platformInternship = (await posted.json()).data;
  // Sara applies to it, so the applicants page has someone on it.
  const sara = { cookie: cookies.student, headers: { cookie: cookies.student, origin: t.origin } };
  assertEquals((await putResume(t, sara as unknown as TestUser)).status, 200);
  const applied = await t.json("POST", `/api/internships/${platformInternship.id}/applications`, {
    body: answersFor(platformInternship),
    headers: { cookie: cookies.student },
  });
  assertEquals(applied.status, 201, "Sara applies");
  const coupon = await t.json("POST", "/api/admin/coupons", {
    body: { code: "PHONE10", discountType: "percentage", discountValue: 10 },
    headers: { cookie: cookies.admin },
  });
  assertEquals(coupon.status, 201, "the admin creates a coupon, so the audit log has a row");
  await coupon.body?.cancel();
  const verification = t.kv.atomic();
  const nisha = (await getUserByEmail(t.kv, "new@demo.careers"))!;
  const verificationToken = await issueTokenOps(verification, "verify-email", nisha);
  assert((await verification.commit()).ok);
  return {
    internship: (await json(t, "/api/internships?limit=1", cookies.student)).internships[0].id,
    ownInternship: (await json(t, "/api/internships?mine=true&limit=1", cookies.member)).internships[0].id,
    platformInternship: platformInternship.id,
    opportunity: (await json(t, "/api/opportunities?limit=1", cookies.student)).opportunities[0].id,
    rejectedOpportunity: (await json(t, "/api/opportunities?mine=true&limit=100", cookies.student)).opportunities
      .find((o: { title: string }) => o.title === "Buy Followers Contest").id,
    post: (await json(t, "/api/ungatekeep?limit=1", cookies.student)).posts[0].id,
    toolkit: toolkits.find((k: { id: string }) => k.id !== ownedToolkit).id,
    ownedToolkit,
    lesson: lesson.id,
    receipt: owned.receiptUrl,
    creditNote: (await json(t, "/api/purchases", cookies.student)).purchases
      .flatMap((p: { creditNotes: { url: string }[] }) => p.creditNotes)[0].url,
    certificate: (await json(t, "/api/me/certificates", cookies.learner)).certificates[0].id,
    organization: organization.slug,
    organizationId: organization.id,
    reported: (await json(t, "/api/admin/reports", cookies.admin)).targets[0],
    verificationToken,
  };
}

/** Waits until the page has loaded, its islands are hydrated and what they fetch has arrived and been drawn. */
const settle = (page: Page) => fetchesDrawn(page);

/** The defects and accessibility violations of the page as shown, each line prefixed with `label`. */
async function problems(page: Page, label: string): Promise<string[]> {
  const found = [
    ...await layoutDefects(page),
    ...await lazyFirstScreenImages(page),
    ...await seriousA11yViolations(page),
  ];
  return found.map((line) => `${label}: ${line}`);
}

Deno.test("every signed-in page fits a 360 px phone, with the menu, the bell and a delete dialog open", async (t) => {
  await using app = await createTestApp({ listen: true, env: withDemoSeller({}) });
  await seedDemoData(app.kv, undefined, app.services.config.seller);
  const cookies = {} as Record<Person, string>;
  for (const [person, email] of Object.entries(PEOPLE) as [Person, string][]) {
    const user = await getUserByEmail(app.kv, email);
    cookies[person] = `session=${(await createSession(app.kv, user!.id)).token}`;
  }
  const pages = pagesOf(await demoIds(app, cookies));
  assertEquals(Object.keys(pages).sort(), pagePatterns(), "every page of routes/ is listed here");

  await using browser = await openBrowser();
  const contexts = {} as Record<Person, BrowserContext>;
  for (const person of Object.keys(PEOPLE) as Person[]) {
    contexts[person] = await phoneContext(browser);
    await trackFetches(contexts[person]);
    await signInBrowser(contexts[person], app.origin, { cookie: cookies[person] });
  }
  const tabs = {} as Record<Person, Page>;
  for (const person of Object.keys(PEOPLE) as Person[]) tabs[person] = await contexts[person].newPage();

  await t.step("every page as each person who sees it", async () => {
    const found: string[] = [];
    for (const [pattern, { paths, by }] of Object.entries(pages)) {
      for (const path of paths) {
        for (const person of by) {
          const page = tabs[person];
          const label = `${pattern} ${path} as ${person}`;
          await page.goto(`${app.origin}${path}`);
          try {
            await settle(page);
          } catch (error) {
            found.push(`${label}: ${(error as Error).message.split("\n")[0]}`);
            continue;
          }
          found.push(...await problems(page, label));
        }
      }
    }
    assertEquals(found, [], "pages that do not fit the phone");
  });

  await t.step("the admin pages at 1024 px, where tables stop stacking", async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    await trackFetches(context);
    await signInBrowser(context, app.origin, { cookie: cookies.admin });
    const page = await context.newPage();
    const found: string[] = [];
    for (const [pattern, { paths }] of Object.entries(pages)) {
      if (!pattern.startsWith("/admin")) continue;
      for (const path of paths) {
        await page.goto(`${app.origin}${path}`);
        await settle(page);
        found.push(...(await layoutDefects(page)).map((line) => `${path} at 1024 px: ${line}`));
      }
    }
    assertEquals(found, []);
    await context.close();
  });

  await t.step("the first toolkit cover loads first", async () => {
    const page = tabs.student;
    await page.goto(`${app.origin}/toolkits`);
    const covers = page.locator("main article img");
    assert(await covers.count() > 1, "the demo toolkits have covers");
    assertEquals(await covers.first().getAttribute("fetchpriority"), "high");
    assertEquals(await covers.nth(1).getAttribute("fetchpriority"), null);
  });

  await t.step("Settings leads to the data export and account deletion", async () => {
    const page = tabs.student;
    await page.goto(`${app.origin}/me/settings`);
    const section = page.getByRole("region", { name: "Account and data" });
    const download = section.getByRole("link", { name: "Download your data" });
    assertEquals(await download.getAttribute("href"), "/api/me/export");
    await section.getByRole("link", { name: "Delete your account" }).click();
    await page.waitForURL(`${app.origin}/profile#your-data`);
    await settle(page);
    const button = await page.getByRole("button", { name: "Delete my account" }).boundingBox();
    assert(
      button && button.y >= 0 && button.y + button.height <= PHONE.height,
      `deletion is on the screen: ${button?.y}`,
    );
  });

  await t.step("the header's menu open", async () => {
    const page = tabs.admin;
    await page.goto(`${app.origin}/me/settings`);
    await settle(page);
    await page.getByText("Menu", { exact: true }).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    const links = ["Internships", "Admin", "Profile", "Settings"].map((name) =>
      nav.getByRole("link", { name, exact: true })
    );
    for (const link of links) assert(await link.isVisible(), `${await link.textContent()} is in the open menu`);
    assertEquals(await problems(page, "menu open"), []);
    await nav.getByRole("link", { name: "Admin", exact: true }).click();
    await page.waitForURL(`${app.origin}/admin`);
  });

  await t.step("the header fits from tablets up, with an admin's long name", async () => {
    const long = await createTestUser(app, "admin", { name: "Aparna Venkataraman-Subramaniam" });
    const context = await browser.newContext();
    await signInBrowser(context, app.origin, long);
    const page = await context.newPage();
    const found: string[] = [];
    for (const width of [640, 768, 900, 1024, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${app.origin}/internships`);
      found.push(...(await layoutDefects(page)).map((line) => `${width} px: ${line}`));
    }
    assertEquals(found, []);
    await context.close();
  });

  await t.step("the bell's panel open", async () => {
    const page = tabs.student;
    await page.goto(`${app.origin}/internships`);
    await settle(page);
    await page.getByRole("button", { name: /^Notifications/ }).click();
    const panel = page.locator("#notification-panel");
    await panel.getByText("See all notifications").waitFor();
    await settle(page);
    assertEquals(await problems(page, "bell open"), []);
    const box = await panel.boundingBox();
    assert(box && box.x >= 0 && box.x + box.width <= 360, `the panel is on the screen: ${JSON.stringify(box)}`);
  });

  await t.step("delete dialogs open", async () => {
    const opened = [
      { person: "member" as const, path: "/internships/mine", button: /^Delete/ },
      { person: "student" as const, path: "/profile", button: /^Delete my account/ },
      { person: "admin" as const, path: "/admin/toolkits", button: /^Delete/ },
    ];
    for (const { person, path, button } of opened) {
      const page = tabs[person];
      await page.goto(`${app.origin}${path}`);
      await settle(page);
      await page.getByRole("button", { name: button }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assertEquals(await problems(page, `${path}, delete dialog open`), []);
      const box = await dialog.boundingBox();
      assert(
        box && box.x >= 8 && box.x + box.width <= 352,
        `${path}: the dialog keeps a margin: ${JSON.stringify(box)}`,
      );
    }
  });
});
