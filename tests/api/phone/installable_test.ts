import { assert, assertEquals, assertMatch, assertNotMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { createSession } from "@/lib/auth/sessions.ts";

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** The width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  assertEquals([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

Deno.test("the web app manifest names the app, its scope and colours", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/manifest.webmanifest");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/manifest+json");
  const manifest = await res.json();
  assertEquals(manifest.name, "Career Community");
  assert(manifest.short_name.length <= 12, "a short name fits under an icon");
  assertEquals(manifest.start_url, "/");
  assertEquals(manifest.scope, "/");
  assertEquals(manifest.display, "standalone");
  assertEquals(manifest.lang, "en");
  assertMatch(manifest.theme_color, /^#[0-9a-f]{6}$/);
  assertMatch(manifest.background_color, /^#[0-9a-f]{6}$/);
});

Deno.test("the manifest comes in the language asked for: lang, description and shortcuts in Hindi", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/manifest.webmanifest?lang=hi");
  assertEquals(res.headers.get("content-type"), "application/manifest+json");
  const manifest = await res.json();
  assertEquals(manifest.lang, "hi");
  assertEquals(manifest.name, "Career Community");
  assertEquals(manifest.short_name, "करियर");
  assertEquals(
    manifest.description,
    "पूरे भारत के छात्रों और करियर की शुरुआत करने वालों के लिए इंटर्नशिप, हैकाथॉन, ग्रांट और टूलकिट।",
  );
  assertEquals(manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url]), [
    ["इंटर्नशिप", "/internships"],
    ["मेरे आवेदन", "/me/tracker"],
  ]);
  const byHeader = await (await t.fetch("/manifest.webmanifest", { headers: { "accept-language": "hi" } })).json();
  assertEquals(byHeader.lang, "hi", "the request's language without ?lang=");
  const english = await t.fetch("/manifest.webmanifest?lang=en");
  assertEquals((await english.json()).shortcuts[0].name, "Internships");
  assert(english.headers.get("etag") !== res.headers.get("etag"), "each language has its own ETag");
  const again = await t.fetch("/manifest.webmanifest?lang=hi", {
    headers: { "if-none-match": res.headers.get("etag")! },
  });
  assertEquals(again.status, 304);
  await again.body?.cancel();
});

Deno.test("the manifest's icons are PNGs of the sizes they claim, 192 and 512 px, one maskable", async () => {
  await using t = await createTestApp();
  const { icons } = await (await t.fetch("/manifest.webmanifest")).json() as { icons: ManifestIcon[] };
  for (const icon of icons) {
    const res = await t.fetch(icon.src);
    assertEquals(res.status, 200, icon.src);
    assertEquals(res.headers.get("content-type"), "image/png");
    const [width, height] = pngSize(new Uint8Array(await res.arrayBuffer()));
    assertEquals(`${width}x${height}`, icon.sizes, icon.src);
  }
  const sizes = (purpose: string) =>
    icons.filter((icon) => (icon.purpose ?? "any").split(" ").includes(purpose)).map((icon) => icon.sizes);
  assertEquals(sizes("any").toSorted(), ["192x192", "512x512"]);
  assertEquals(sizes("maskable"), ["512x512"]);
});

Deno.test("every page links the manifest, the theme colour and a touch icon", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const pages: [string, HeadersInit][] = [
    ["/", {}],
    ["/internships", {}],
    ["/sign-in", {}],
    ["/no-such-page", {}],
    ["/me/tracker", student.headers],
  ];
  const hindi = await (await t.fetch("/internships?lang=hi")).text();
  assertMatch(
    hindi,
    /<link rel="manifest" href="\/manifest.webmanifest\?lang=hi"/,
    "a Hindi page links the Hindi manifest",
  );
  for (const [path, headers] of pages) {
    const html = await (await t.fetch(path, { headers })).text();
    assertMatch(html, /<link rel="manifest" href="\/manifest.webmanifest\?lang=en"/, path);
    assertMatch(html, /<meta name="theme-color" content="#[0-9a-f]{6}"/, path);
    assertMatch(html, /<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png"/, path);
  }
});

Deno.test("/sw.js is the built service worker, scope /, revalidated on every visit", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/sw.js");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/javascript; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-cache");
  const body = await res.text();
  for (const lang of ["en", "hi"]) {
    assertMatch(body, new RegExp(`"/offline\\?lang=${lang}"`), `the offline page in ${lang} is in its shell`);
  }
  assertNotMatch(body, /styles-[0-9a-f]+\.css/, "not the stylesheet: pages inline their rules and link none");
  // The boot module and every chunk it imports, so the offline page's island hydrates from the shell alone.
  const boot = (await (await t.fetch("/offline")).text()).match(/src="(\/_build\/boot-[A-Z0-9]+\.js)"/)![1];
  const chunks = [...(await (await t.fetch(boot)).text()).matchAll(/["']\.\/(chunk-[A-Z0-9]+\.js)["']/g)];
  assert(chunks.length > 0, "the boot module imports chunks");
  for (const path of [boot, ...chunks.map((m) => `/_build/${m[1]}`)]) assert(body.includes(`"${path}"`), path);
  const again = await t.fetch("/sw.js", { headers: { "if-none-match": res.headers.get("etag")! } });
  assertEquals(again.status, 304);
});

Deno.test("every page registers the service worker with a deferred module, after the stylesheet", async () => {
  await using t = await createTestApp();
  for (const path of ["/", "/internships", "/privacy"]) {
    const html = await (await t.fetch(path)).text();
    const register = html.match(/<script type="module" src="(\/_build\/register-sw-[A-Z0-9]+\.js)"><\/script>/);
    assert(register, `${path} registers the service worker`);
    const script = await (await t.fetch(register[1])).text();
    assertMatch(script, /serviceWorker\.register\("\/sw\.js"/);
    assertMatch(script, /addEventListener\("load"/, "registered after load, not before the first paint");
  }
});

Deno.test("pages a phone may keep carry Offline-Scope naming whose they are; others do not", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const admin = await createTestUser(t, "admin");
  const scope = async (path: string, headers: HeadersInit = {}) => {
    const res = await t.fetch(path, { headers });
    await res.body?.cancel();
    return res.headers.get("offline-scope");
  };
  assertEquals(await scope("/"), "guest");
  assertEquals(await scope("/internships"), "guest");
  assertEquals(await scope("/me/tracker", student.headers), `u:${student.user.id}`);
  assertEquals(await scope("/internships", student.headers), `u:${student.user.id}`);
  for (const path of ["/admin", "/admin/outbox", "/admin/users"]) assertEquals(await scope(path, admin.headers), null);
  for (const path of ["/sign-in", "/sign-up", "/reset-password?token=x", "/unsubscribe/abc", "/offline"]) {
    assertEquals(await scope(path), null, path);
  }
  assertEquals(await scope("/internships/new", student.headers), null);
  assertEquals(await scope("/profile", student.headers), null);
  assertEquals(await scope("/me/data", student.headers), null, "everything kept about them, in one page");
  assertEquals(await scope("/no-such-page"), null, "a 404");
  assertEquals(await scope("/me/tracker"), null, "a guest is sent to sign in");
  assertEquals(await scope("/api/me/settings", student.headers), null);
});

Deno.test("a session without Remember me gets no Offline-Scope: nothing of that person is kept on the phone", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const { token } = await createSession(t.kv, student.user.id, { persistent: false });
  for (const path of ["/", "/internships", "/me/tracker"]) {
    const res = await t.fetch(path, { headers: { cookie: `session=${token}` } });
    await res.body?.cancel();
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("offline-scope"), null, path);
  }
  const remembered = await createSession(t.kv, student.user.id, { persistent: true });
  const res = await t.fetch("/me/tracker", { headers: { cookie: `session=${remembered.token}` } });
  await res.body?.cancel();
  assertEquals(res.headers.get("offline-scope"), `u:${student.user.id}`);
});

Deno.test("a sign-in as someone other than the browser's session answers Clear-Site-Data for storage", async () => {
  await using t = await createTestApp();
  const last = await createTestUser(t);
  const next = await passwordUser(t, { email: "bala@example.com" });
  const body = { email: next.email, password: PASSWORD };
  const api = async (cookie?: string) => {
    const res = await t.json("POST", "/api/auth/sign-in/email", { body, headers: cookie ? { cookie } : {} });
    await res.body?.cancel();
    assertEquals(res.status, 200);
    return res;
  };
  const alone = await api();
  assertEquals(alone.headers.get("clear-site-data"), '"storage"', "no session before");
  assertEquals((await api(last.cookie)).headers.get("clear-site-data"), '"storage"', "another person's session");
  const own = alone.headers.getSetCookie().find((cookie) => cookie.startsWith("session="))!.split(";")[0];
  assertEquals((await api(own)).headers.get("clear-site-data"), null, "the same person signing in again");
  const form = await t.fetch("/sign-in", {
    method: "POST",
    redirect: "manual",
    headers: { origin: t.origin, cookie: last.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
  await form.body?.cancel();
  assertEquals(form.status, 303);
  assertEquals(form.headers.get("clear-site-data"), '"storage"', "the sign-in page's form");
});

Deno.test("every way of signing out answers Clear-Site-Data for the cache and storage", async () => {
  await using t = await createTestApp();
  const form = await createTestUser(t);
  const page = await t.fetch("/sign-out", { method: "POST", headers: form.headers, redirect: "manual" });
  assertEquals(page.status, 303);
  assertEquals(page.headers.get("clear-site-data"), '"cache", "storage"');
  const api = await createTestUser(t);
  const json = await t.json("POST", "/api/auth/sign-out", { headers: { cookie: api.cookie } });
  assertEquals(json.status, 200);
  assertEquals(json.headers.get("clear-site-data"), '"cache", "storage"');
  const leaving = await createTestUser(t);
  const deleted = await t.json("DELETE", "/api/me", {
    headers: { cookie: leaving.cookie },
    body: { confirm: leaving.user.email },
  });
  assertEquals(deleted.status, 200, await deleted.clone().text());
  assertEquals(deleted.headers.get("clear-site-data"), '"cache", "storage"');
});
