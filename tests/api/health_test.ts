import { assertEquals, assertMatch, assertNotMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";

Deno.test("GET /api/health answers ok with a request id", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/health");
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  assertEquals(await res.json(), { status: "ok" });
});

Deno.test("unknown /api path is a JSON 404", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/does-not-exist/at/all");
  assertEquals(res.status, 404);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(await res.json(), { error: "Not found" });
});

Deno.test("wrong method is a JSON 405 with Allow", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", "/api/health", { body: {} });
  assertEquals(res.status, 405);
  assertEquals(res.headers.get("allow"), "GET, HEAD");
  assertEquals(await res.json(), { error: "Method not allowed" });
});

Deno.test("unknown page renders the 404 page", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/no-such-page");
  assertEquals(res.status, 404);
  assertMatch(await res.text(), /Page not found/);
});

Deno.test("security headers are set on every response", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/");
  await res.body?.cancel();
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  assertEquals(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
  assertMatch(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  assertEquals(res.headers.get("strict-transport-security"), null);
});

Deno.test("API responses carry nosniff, a deny-all CSP with frame-ancestors and Referrer-Policy", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/health");
  await res.body?.cancel();
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  assertEquals(res.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'");
  assertEquals(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
});

Deno.test("the API reference page under /api/ carries the document CSP, so its stylesheet loads", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/docs");
  await res.body?.cancel();
  assertMatch(res.headers.get("content-security-policy") ?? "", /style-src 'self'/);
});

Deno.test("HSTS is sent when the public origin is https", async () => {
  await using t = await createTestApp({ env: { APP_URL: "https://careers.example", AUTH_SECRET: "x".repeat(32) } });
  const res = await t.fetch("https://careers.example/api/health");
  await res.body?.cancel();
  assertMatch(res.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
});

Deno.test("a body over 1 MB is refused with 413", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", "/api/health", { body: { big: "x".repeat(1024 * 1024 + 10) } });
  assertEquals(res.status, 413);
  assertMatch((await res.json()).error, /larger than 1 MB/);
});

Deno.test("a state-changing request with a session cookie from another origin is refused", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const res = await t.fetch("/api/health", {
    method: "POST",
    headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
    body: "{}",
  });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), { error: "Invalid origin" });
});

Deno.test("a cross-site state-changing request is refused even without a cookie", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/health", { method: "POST", headers: { "sec-fetch-site": "cross-site" } });
  assertEquals(res.status, 403);
});

Deno.test("admin routes: 401 for guests, 403 for users and members", async () => {
  await using t = await createTestApp();
  assertEquals((await t.fetch("/api/admin/anything")).status, 401);
  for (const role of ["user", "member"] as const) {
    const { headers } = await createTestUser(t, role);
    const res = await t.fetch("/api/admin/anything", { headers });
    assertEquals(res.status, 403, role);
  }
  const admin = await createTestUser(t, "admin");
  assertEquals((await t.fetch("/api/admin/anything", { headers: admin.headers })).status, 404);
});

Deno.test("a URL path over 1024 characters is refused with 414, not passed to KV", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json("PATCH", `/api/admin/users/${"a".repeat(3000)}`, {
    body: { role: "member" },
    headers: admin.headers,
  });
  assertEquals(res.status, 414);
  assertEquals(await res.json(), { error: "URL path is too long" });
});

Deno.test("a page path too long, or read when it only takes a form, is a page in the reader's language", async () => {
  await using t = await createTestApp();
  const long = await t.fetch(`/${"a".repeat(9000)}`, { headers: { cookie: "lang=hi" } });
  assertEquals(long.status, 414);
  assertEquals(long.headers.get("content-language"), "hi");
  assertMatch(await long.text(), /<html lang="hi"[\s\S]*यह लिंक बहुत लंबा है/);
  const byHeader = await t.fetch(`/${"a".repeat(2000)}?x=1`, { headers: { "accept-language": "hi-IN,hi;q=0.9" } });
  assertMatch(await byHeader.text(), /यह लिंक बहुत लंबा है/);
  const english = await t.fetch(`/${"a".repeat(2000)}`);
  assertEquals(english.status, 414);
  assertMatch(await english.text(), /This link is too long/);
  const read = await t.fetch("/sign-out?lang=hi");
  assertEquals(read.status, 405);
  assertEquals(read.headers.get("allow"), "POST");
  assertMatch(read.headers.get("content-type") ?? "", /^text\/html/);
  assertMatch(await read.text(), /यह काम इस पेज पर नहीं होता/);
  // A form sent to a page that only reads (a POST, PUT or DELETE from a browser) gets the page too.
  for (const method of ["POST", "PUT", "DELETE"]) {
    const sent = await t.fetch("/opportunities?lang=hi", {
      method,
      headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
      body: "q=x",
    });
    assertEquals(sent.status, 405, method);
    assertEquals(sent.headers.get("allow"), "GET, HEAD", method);
    assertMatch(sent.headers.get("content-type") ?? "", /^text\/html/, method);
    assertMatch(await sent.text(), /<html lang="hi"[\s\S]*यह काम इस पेज पर नहीं होता/, method);
  }
});

Deno.test("an error page names no canonical URL and no hreflang alternates", async () => {
  await using t = await createTestApp();
  for (const path of ["/nope-404?lang=hi", "/nope-404", `/${"a".repeat(2000)}`, "/sign-out"]) {
    const html = await (await t.fetch(path)).text();
    assertNotMatch(html, /rel="canonical"/, path);
    assertNotMatch(html, /hreflang=/, path);
  }
  assertMatch(await (await t.fetch("/internships")).text(), /rel="canonical"/, "a page still names its own");
});
