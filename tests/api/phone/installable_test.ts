import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";

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
  for (const [path, headers] of pages) {
    const html = await (await t.fetch(path, { headers })).text();
    assertMatch(html, /<link rel="manifest" href="\/manifest.webmanifest"/, path);
    assertMatch(html, /<meta name="theme-color" content="#[0-9a-f]{6}"/, path);
    assertMatch(html, /<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png"/, path);
  }
});
