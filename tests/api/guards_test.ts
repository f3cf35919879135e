/**
 * Guards stop a request before the handler runs, and per-route options (`export const routeOptions`)
 * change only what they name: spy routes served beside the platform's own, through the real
 * middleware chain (`routes/_middleware.ts`, `routes/admin/_middleware.ts`).
 */
import { assertSignedIn } from "@/lib/http/guards.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import type { Handlers, RouteModule } from "@/lib/web/types.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@/tests/helpers/assert.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertHtml } from "@/tests/fixtures/html.ts";
import { addToolkit, openShop } from "@/tests/fixtures/toolkits.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";

/** Route modules that count how often their handlers ran. */
function spyRoutes() {
  const runs: string[] = [];
  const spy = (name: string): Handlers<unknown, AppState> => ({
    GET(_req, ctx) {
      runs.push(`GET ${name}`);
      return ctx.render();
    },
    POST(req) {
      runs.push(`POST ${name}`);
      return req.text().then((body) => Response.json({ bytes: body.length }));
    },
  });
  const page = () => null;
  const routes: Record<string, RouteModule> = {
    "./routes/admin/spy.tsx": { handler: spy("admin"), default: page },
    "./routes/spy-private.tsx": {
      handler: {
        GET(_req, ctx) {
          assertSignedIn(ctx.state as AppState);
          runs.push("GET private");
          return new Response("private");
        },
      } satisfies Handlers<unknown, AppState>,
    },
    "./routes/api/spy-default.ts": { handler: spy("default") },
    "./routes/api/spy-signed.ts": {
      routeOptions: { originCheck: false, bodyLimitBytes: 2 * 1024 * 1024 } satisfies RouteOptions,
      handler: spy("signed"),
    },
  };
  return { runs, routes };
}

Deno.test("a non-admin GET of an admin page gets the 403 page and never runs the page handler", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  for (const role of ["user", "member"] as const) {
    const { cookie } = await createTestUser(t, role);
    const res = await t.fetch("/admin/spy", { headers: { cookie } });
    assertHtml(res, 403);
    const html = await res.text();
    assert(html.includes("You do not have access to this page"), html);
    assert(!html.includes('aria-label="Admin"'), "no admin navigation for a non-admin");
  }
  const guest = await t.fetch("/admin/spy");
  assertEquals(guest.status, 302);
  assertEquals(guest.headers.get("location"), "/sign-in?callbackURL=%2Fadmin%2Fspy");
  const post = await t.json("POST", "/admin/spy", {
    body: {},
    headers: { cookie: (await createTestUser(t, "member")).cookie },
  });
  assertEquals(post.status, 403);
  assertEquals(await post.json(), { error: "Forbidden" });
  assertEquals(runs, [], "no admin handler ran for anyone but an admin");
  const admin = await createTestUser(t, "admin");
  assertEquals((await t.fetch("/admin/spy", { headers: { cookie: admin.cookie } })).status, 200);
  assertEquals(runs, ["GET admin"]);
});

Deno.test("an admin whose address is not verified is refused the admin area, told to verify it first", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  // An account made admin at sign-up before the role waited for the address to be proven.
  const admin = await createTestUser(t, "admin");
  await t.kv.set(["users", admin.user.id], { ...admin.user, emailVerified: false });
  for (
    const [lang, sentence] of [["en", /Verify your e-mail address first: the admin area/], ["hi", /एडमिन वाला हिस्सा/]]
  ) {
    const page = await t.fetch(`/admin/spy?lang=${lang}`, { headers: { cookie: admin.cookie } });
    assertHtml(page, 403);
    const html = await page.text();
    assertMatch(html, sentence as RegExp);
    assert(!html.includes('aria-label="Admin"'), "no admin navigation");
  }
  for (const path of ["/api/admin/users", "/api/admin/log"]) {
    const res = await t.fetch(path, { headers: admin.headers });
    assertEquals([res.status, await res.json()], [403, { error: REFUSALS.verifyToAdmin }], path);
  }
  const toolkit = await t.json("POST", "/api/toolkits", { body: {}, headers: admin.headers });
  assertEquals([toolkit.status, await toolkit.json()], [403, { error: REFUSALS.verifyToAdmin }]);
  assertEquals(runs, [], "no admin handler ran");
  await t.kv.set(["users", admin.user.id], { ...admin.user, emailVerified: true });
  assertEquals((await t.fetch("/admin/spy", { headers: { cookie: admin.cookie } })).status, 200, "verified, it opens");
});

Deno.test("an admin whose address is not verified has no admin power outside the admin area either", async () => {
  await using shop = await openShop();
  const { t } = shop;
  const secret = "https://material.example.com/paid-page";
  const kit = await addToolkit(shop, { contentUrl: secret });
  const owner = await createTestUser(t, "member");
  const [listing] = await postInternships(t, owner, [{ title: "Not yours" }]);
  const admin = await createTestUser(t, "admin");
  await t.kv.set(["users", admin.user.id], { ...admin.user, emailVerified: false });
  const detail = await (await t.fetch(`/api/toolkits/${kit.id}`, { headers: admin.headers })).json();
  assertEquals(detail.toolkit.contentUrl, null, "the paid material stays locked");
  const removed = await t.json("DELETE", `/api/internships/${listing.id}`, { headers: admin.headers });
  assertEquals(removed.status, 403, "another member's listing stays");
  await removed.body?.cancel();
  const header = await (await t.fetch("/", { headers: { cookie: admin.cookie } })).text();
  assert(!header.includes('href="/admin"'), "no admin link in the header");
  await t.kv.set(["users", admin.user.id], { ...admin.user, emailVerified: true });
  const verified = await (await t.fetch("/", { headers: { cookie: admin.cookie } })).text();
  assert(verified.includes('href="/admin"'), "verified, the header links the admin area");
});

Deno.test("a path that escapes a plain character is sent to its plain spelling before any step or handler", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  const student = await createTestUser(t);
  const sent = [
    { path: "/api/%61dmin/users", to: "/api/admin/users" },
    { path: "/%61dmin/spy?tab=2&q=%61", to: "/admin/spy?tab=2&q=%61" },
    { path: "/admin/%73py", to: "/admin/spy" },
    { path: "/api/internships/%2E%2E/%61dmin/users", to: "/api/admin/users" },
  ];
  for (const { path, to } of sent) {
    for (const headers of [{}, student.headers]) {
      const res = await t.fetch(path, { headers });
      assertEquals([res.status, res.headers.get("location")], [308, to], path);
      assertEquals(await res.text(), "");
    }
  }
  const write = await t.fetch("/api/%61dmin/coupons", {
    method: "POST",
    headers: { ...student.headers, "content-type": "application/json" },
    body: JSON.stringify({ code: "FREE", discountType: "percentage", discountValue: 100 }),
  });
  assertEquals([write.status, write.headers.get("location")], [308, "/api/admin/coupons"]);
  const written = await t.fetch("/admin/%73py", { method: "POST", headers: student.headers, body: "{}" });
  assertEquals(written.status, 308);
  assertEquals(runs, [], "no handler ran");
  const admin = await createTestUser(t, "admin");
  const coupons = await (await t.fetch("/api/admin/coupons", { headers: admin.headers })).json();
  assertEquals(coupons.coupons, [], "the escaped write created nothing");
  // Escapes of characters that need them stay: no redirect, the route answers as before.
  for (const path of ["/api/internships/a%2Fb", "/api/internships/%E0%A4%95", "/api/internships/a%20b"]) {
    const res = await t.fetch(path);
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
  // The plain spelling is guarded as ever.
  assertEquals((await t.fetch("/api/admin/users")).status, 401);
  assertEquals((await t.fetch("/api/admin/users", { headers: student.headers })).status, 403);
});

/** Sends `GET path` over a raw connection exactly as written (no URL parsing) and answers its status and `Location`. */
async function getAsSent(t: { origin: string }, path: string): Promise<[number, string | null]> {
  const { hostname, port, host } = new URL(t.origin);
  using conn = await Deno.connect({ hostname, port: Number(port) });
  await conn.write(new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`));
  const head = new TextDecoder().decode((await new Response(conn.readable).bytes()).subarray(0, 4096));
  const status = Number(head.match(/^HTTP\/1\.1 (\d+)/)?.[1]);
  return [status, head.match(/\r\nlocation: ([^\r]*)/i)?.[1] ?? null];
}

Deno.test("dot segments in a path as sent are resolved by a 308 before any route sees them", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes, listen: true });
  const sent: [string, string][] = [
    ["/admin/%2e/spy", "/admin/spy"],
    ["/spy-private/%2e%2e/admin/spy?x=1", "/admin/spy?x=1"],
    ["/api/internships/%2E%2E", "/api/"],
    ["/api/internships/..", "/api/"],
    ["//evil.example/x", "/evil.example/x"],
    ["/.//evil.example", "/evil.example"],
  ];
  for (const [path, location] of sent) assertEquals(await getAsSent(t, path), [308, location], path);
  assertEquals(await getAsSent(t, "/api/health"), [200, null]);
  assertEquals(runs, []);
});

Deno.test("a page that asserts a session sends a guest to sign in and back, keeping the query", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  const res = await t.fetch("/spy-private?tab=2&error=INVALID_TOKEN");
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/sign-in?callbackURL=%2Fspy-private%3Ftab%3D2&error=INVALID_TOKEN");
  assertEquals(runs, []);
  const { cookie } = await createTestUser(t);
  assertEquals(await (await t.fetch("/spy-private", { headers: { cookie } })).text(), "private");
});

Deno.test("the origin check applies by default and is skipped only where a route declares originCheck: false", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  const { cookie } = await createTestUser(t);
  const foreign = { cookie, origin: "https://evil.example", "content-type": "application/json" };
  const refused = await t.fetch("/api/spy-default", { method: "POST", headers: foreign, body: "{}" });
  assertEquals(refused.status, 403);
  assertEquals(await refused.json(), { error: "Invalid origin" });
  const crossSite = { "sec-fetch-site": "cross-site" };
  assertEquals((await t.fetch("/api/spy-default", { method: "POST", headers: crossSite, body: "{}" })).status, 403);
  assertEquals(runs, []);
  const signed = await t.fetch("/api/spy-signed", { method: "POST", headers: foreign, body: "{}" });
  assertEquals(signed.status, 200);
  assertEquals(runs, ["POST signed"]);
});

Deno.test("a route's bodyLimitBytes replaces the 1 MB default for that route only", async () => {
  const { runs, routes } = spyRoutes();
  await using t = await createTestApp({ routes });
  const body = "x".repeat(1024 * 1024 + 1);
  const small = await t.fetch("/api/spy-default", { method: "POST", body });
  assertEquals(small.status, 413);
  assertEquals(await small.json(), { error: "Request body is larger than 1 MB" });
  const large = await t.fetch("/api/spy-signed", { method: "POST", body });
  assertEquals(large.status, 200);
  assertEquals(await large.json(), { bytes: body.length });
  const tooLarge = await t.fetch("/api/spy-signed", { method: "POST", body: "x".repeat(2 * 1024 * 1024 + 1) });
  assertEquals(tooLarge.status, 413);
  assertEquals(await tooLarge.json(), { error: "Request body is larger than 2 MB" });
  assertEquals(runs, ["POST signed"]);
});

Deno.test("route options with an unknown option or a wrong value fails the start, naming the route", async () => {
  for (const routeOptions of [{ originCheck: "off" }, { bodyLimit: 5 }, { bodyLimitBytes: -1 }]) {
    await assertRejects(
      () => createTestApp({ routes: { "./routes/api/typo.ts": { routeOptions, handler: () => new Response() } } }),
      /Invalid route options of \/api\/typo/,
    );
  }
});
