/**
 * Guest pages from the cache (`lib/http/guest_pages.ts`, `servePublicPage`): the home page,
 * `/internships` with any query and an internship page are kept per path, query and internship
 * data version for guests; a write shows at once; signed-in users always get a fresh page. A list page past its end
 * is the not-found page, and never kept.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { GuestPageCache } from "@/lib/http/guest_pages.ts";
import { deleteInternship } from "@/lib/internships/writes.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { createPost } from "@/tests/fixtures/posts.ts";

async function post(t: TestApp, owner: TestUser, title: string) {
  const [created] = await addInternships(t, owner, [
    { title, hiringOrganization: "Cache Labs", link: "https://example.com/apply" },
  ]);
  return created;
}

async function html(t: TestApp, path: string, headers?: HeadersInit): Promise<string> {
  const res = await t.fetch(path, { headers });
  assertEquals(res.status, 200, path);
  return await res.text();
}

Deno.test("a guest's page is kept per path and query, and a write shows on the next request", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const first = await post(t, member, "Cache Intern One");
  for (const path of ["/", "/internships", "/internships?search=cache", `/internships/${first.id}`]) {
    const before = t.services.guestPages.size;
    const fresh = await html(t, path);
    assertEquals(t.services.guestPages.size, before + 1, `${path} is kept`);
    assertEquals(await html(t, path), fresh, `${path} is served the same from the cache`);
    assertEquals(t.services.guestPages.size, before + 1);
  }
  assert(!(await html(t, "/internships")).includes("Cache Intern Two"));
  await post(t, member, "Cache Intern Two");
  assert((await html(t, "/internships")).includes("Cache Intern Two"), "a create shows at once");
  assert((await html(t, "/")).includes("Cache Intern Two"));
  await deleteInternship(t.kv, { id: first.id, actor: member.user });
  assertEquals((await t.fetch(`/internships/${first.id}`)).status, 404, "a delete shows at once");
  assert(!(await html(t, "/internships?search=cache")).includes("Cache Intern One"));
});

Deno.test("a list page past its end is the 404 page in the reader's language, and no such offset is kept", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const internship = await post(t, member, "Past End Intern");
  await submitOpportunity(t, member, "Past End Hack");
  await createPost(t, admin, { title: "Past End Guide" });
  const lists = ["/internships", "/opportunities", "/ungatekeep", `/organizations/${internship.organization!.slug}`];
  for (const list of lists) {
    assert((await html(t, list)).includes("Past End"), list);
    const kept = t.services.guestPages.size;
    for (const offset of [1, 40, 999_999_999]) {
      for (const [lang, words] of [["en", "Page not found"], ["hi", "पेज नहीं मिला"]]) {
        const res = await t.fetch(`${list}?offset=${offset}`, { headers: { cookie: `lang=${lang}` } });
        assertEquals(res.status, 404, `${list}?offset=${offset}`);
        const text = await res.text();
        assert(text.includes(words) && !text.includes("Past End"), `${list}?offset=${offset} in ${lang}`);
      }
    }
    assertEquals(t.services.guestPages.size, kept, `${list}: no page past the end is kept`);
    const signedIn = await t.fetch(`${list}?offset=40`, { headers: { cookie: member.cookie } });
    await signedIn.body?.cancel();
    assertEquals(signedIn.status, 404, `${list} signed in`);
  }
  assert((await html(t, "/opportunities?type=grant")).includes("No opportunities found"), "an empty list's first page");
});

Deno.test("a signed-in user never gets a guest's copy, and their page is never kept", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  await post(t, member, "Cache Intern");
  const profileLink = 'href="/profile"';
  const guestPage = await html(t, "/internships");
  assert(!guestPage.includes(profileLink));
  const kept = t.services.guestPages.size;
  const memberPage = await html(t, "/internships", { cookie: member.cookie });
  assert(memberPage.includes(profileLink), "the member's own header");
  assert(memberPage.includes("Post an internship"));
  assertEquals(t.services.guestPages.size, kept);
  assert(!(await html(t, "/internships")).includes(profileLink), "the member's page is not served to guests");
});

Deno.test("GuestPageCache keeps only 200 answers with short keys, within its bytes, dropping the least recently used", async () => {
  // 2,550 of the 3,400 bytes for pages without a query: two pages of about 1,000 bytes.
  const cache = new GuestPageCache(3400, 40);
  let renders = 0;
  const render = (status = 200) => () => {
    renders++;
    return new Response(`page ${renders}:${".".repeat(990)}`, { status, headers: { "content-type": "text/html" } });
  };
  const text = async (place: string, version = "v1") =>
    (await (await cache.serve(place, "en", version, render())).text()).split(":")[0];
  assertEquals(await text("/a"), "page 1");
  assertEquals(await text("/a"), "page 1");
  assertEquals(await text("/a", "v2"), "page 2", "a new version renders again");
  const missing = await cache.serve("/b", "en", "v1", render(404));
  await missing.body?.cancel();
  assertEquals([missing.status, cache.size], [404, 1]);
  await text(`/c?${"x".repeat(40)}`);
  assertEquals(cache.size, 1, "a long key is not kept");
  await text("/d");
  assertEquals(cache.size, 2);
  assertEquals(await text("/a", "v2"), "page 2", "/a kept, and now the most recently used");
  await text("/e");
  assertEquals(cache.size, 2, "past 2550 bytes, one page is dropped");
  assert(cache.bytes <= 2550, `${cache.bytes} bytes kept`);
  assertEquals(await text("/a", "v2"), "page 2", "not the least recently used");
  assertEquals(await text("/e"), "page 6");
  assertEquals(await text("/d"), "page 7", "the least recently used was dropped");
  const kept = await cache.serve("/d", "en", "v1", render());
  assertEquals(kept.headers.get("content-type"), "text/html");
  await kept.body?.cancel();
});

Deno.test("GuestPageCache: a flood of made-up queries pushes out only answers to queries, never pages without one", async () => {
  const cache = new GuestPageCache(20_000);
  const rendered: string[] = [];
  const serve = async (place: string) => {
    const res = await cache.serve(place, "en", "v1", () => {
      rendered.push(place);
      return new Response(`${place}:${".".repeat(990)}`, { headers: { "content-type": "text/html" } });
    });
    return (await res.text()).split(":")[0];
  };
  for (const place of ["/", "/internships", "/internships?type=remote"]) await serve(place);
  for (let i = 0; i < 100; i++) await serve(`/internships?x=${i}`);
  assert(cache.bytes <= 20_000, `${cache.bytes} bytes kept`);
  rendered.length = 0;
  assertEquals([await serve("/"), await serve("/internships")], ["/", "/internships"]);
  assertEquals(rendered, [], "the pages without a query were kept");
  assertEquals(await serve("/internships?type=remote"), "/internships?type=remote");
  assertEquals(rendered, ["/internships?type=remote"], "a queried page was pushed out by the flood");
  assert(cache.size <= 2 + 5, `${cache.size} pages kept: the queried ones within a quarter of the bytes`);
});

Deno.test("GuestPageCache sends a kept HTML or JSON answer compressed for the encodings browsers ask for, as Deno.serve would", async () => {
  const cache = new GuestPageCache();
  const html = `<!DOCTYPE html><html><body>${"<p>kept page</p>".repeat(200)}</body></html>`;
  let renders = 0;
  const render = (type = "text/html; charset=utf-8") => () => {
    renders++;
    return new Response(html, { headers: { "content-type": type, vary: "Accept-Language" } });
  };
  const url = "/page";
  const plain = await cache.serve(url, "en", "v1", render());
  assertEquals([plain.headers.get("content-encoding"), await plain.text()], [null, html]);
  for (const [accept, encoding] of [["gzip, deflate, br, zstd", "br"], ["gzip, deflate, br", "br"], ["gzip", "gzip"]]) {
    for (let i = 0; i < 2; i++) {
      const res = await cache.serve(url, "en", "v1", render(), accept);
      assertEquals(res.headers.get("content-encoding"), encoding, accept);
      assertEquals(res.headers.get("vary"), "Accept-Encoding, Accept-Language");
      const bytes = new Uint8Array(await res.arrayBuffer());
      assertEquals(new TextDecoder().decode(encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes)), html);
    }
  }
  const other = await cache.serve(url, "en", "v1", render(), "deflate");
  assertEquals([other.headers.get("content-encoding"), await other.text()], [null, html], "left to Deno.serve");
  assertEquals(renders, 1);
  const list = "/api/list";
  await cache.serve(list, "api", "v1", render("application/json"), "gzip,br");
  const json = await cache.serve(list, "api", "v1", render("application/json"), "gzip,br");
  assertEquals(json.headers.get("content-encoding"), "br", "JSON too, for Deno's fetch");
  await json.body?.cancel();
  const feed = await cache.serve("/feed", "en", "v1", render("application/rss+xml"), "br");
  assertEquals([feed.headers.get("content-encoding"), await feed.text()], [null, html], "only HTML and JSON here");
});

Deno.test("GET /api/internships: the public list is kept and sent compressed once asked again; an admin's is not", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  await post(t, member, "Kept List Intern");
  const path = "/api/internships?search=kept";
  const before = t.services.guestPages.size;
  const first = await t.fetch(path, { headers: { "accept-encoding": "gzip,br" } });
  const json = await first.text();
  assert(json.includes("Kept List Intern"));
  assertEquals(t.services.guestPages.size, before + 1, "kept");
  for (const headers of [{}, { cookie: member.cookie }] as Record<string, string>[]) {
    const again = await t.fetch(path, { headers: { ...headers, "accept-encoding": "gzip,br" } });
    assertEquals(again.headers.get("content-encoding"), "br", "compressed here, once");
    assertEquals(new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await again.arrayBuffer()))), json);
  }
  const adminList = await t.fetch(path, { headers: { cookie: admin.cookie } });
  assertEquals(adminList.status, 200);
  await adminList.body?.cancel();
  assertEquals(t.services.guestPages.size, before + 1, "an admin's list is not kept");
  await post(t, member, "Kept List Intern Two");
  assert((await (await t.fetch(path)).text()).includes("Kept List Intern Two"), "a create shows at once");
});

Deno.test("GET /api/internships: made-up parameters share the list's entry, and a flood of queries stays within the bound", async () => {
  const bound = 512 * 1024;
  await using t = await createTestApp({ guestPageBytes: bound });
  const member = await createTestUser(t, "member");
  await addInternships(
    t,
    member,
    Array.from({ length: 30 }, (_, i) => ({ title: `Flood Intern ${i}`, description: "d".repeat(2000) })),
  );
  const read = async (path: string) => {
    const res = await t.fetch(path, { headers: { "accept-encoding": "gzip,br" } });
    assertEquals(res.status, 200, path);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const json = res.headers.get("content-encoding") === "br" ? brotliDecompressSync(bytes) : bytes;
    return JSON.parse(new TextDecoder().decode(json));
  };
  const titles = (list: { internships: { title: string }[] }) => list.internships.map(({ title }) => title);
  const before = t.services.guestPages.size;
  const all = titles(await read("/api/internships?limit=30"));
  assertEquals(all.length, 30);
  for (let i = 0; i < 200; i++) {
    assertEquals(titles(await read(`/api/internships?limit=30&junk=${i}`)), all);
  }
  assertEquals(t.services.guestPages.size, before + 1, "one entry for every made-up parameter");
  for (let offset = 0; offset < 30; offset++) {
    for (let i = 0; i < 2; i++) {
      const list = await read(`/api/internships?limit=30&offset=${offset}`);
      assertEquals([titles(list), list.pagination.offset], [all.slice(offset), offset]);
      assert(t.services.guestPages.bytes <= bound, `${t.services.guestPages.bytes} bytes kept`);
    }
  }
  assert(t.services.guestPages.size < 30, "the least recently used lists were dropped");
  assertEquals(titles(await read("/api/internships?limit=30")), all, "a dropped list is read again");
});
