import { assertEquals } from "@/tests/helpers/assert.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { createLogger } from "@/lib/log.ts";
import {
  BANNERS_PREFIX,
  deleteUnusedImages,
  LESSONS_PREFIX,
  POSTS_PREFIX,
  TOOLKITS_PREFIX,
  uploadOf,
} from "./image_use.ts";

/** `kv` with the prefixes it listed, in order. */
function listing(kv: Deno.Kv): { kv: Deno.Kv; listed: string[] } {
  const listed: string[] = [];
  const proxy = new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return (selector: { prefix: Deno.KvKey }, options?: Deno.KvListOptions) => {
          listed.push(String(selector.prefix[0]));
          return target.list(selector, options);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: proxy, listed };
}

Deno.test("images no banner or post names are deleted; no images scan nothing; the scan stops once all are named", async () => {
  using raw = await Deno.openKv(":memory:");
  const { kv, listed } = listing(raw);
  const files = new KvObjectStore(raw);
  const log = createLogger("error", () => {});
  const png = (n: number) => files.put(new Uint8Array([n]), "image/png");
  const [onBanner, onPost, unused] = await Promise.all([png(1), png(2), png(3)]);
  await raw.set([...BANNERS_PREFIX, "b1"], { id: "b1", imageId: onBanner.id });
  await raw.set([...POSTS_PREFIX, "p1"], { id: "p1", images: [onPost.id] });
  const fields = { message: "post image not deleted", postId: "p0" };

  await deleteUnusedImages(kv, { files, log }, [], fields);
  assertEquals(listed, [], "a post without images scans nothing");
  await deleteUnusedImages(kv, { files, log }, [onBanner.id], fields);
  assertEquals(listed, ["banners"], "found on a banner: the posts are not scanned");
  listed.length = 0;
  await deleteUnusedImages(kv, { files, log }, [onBanner.id, onPost.id, unused.id], fields);
  assertEquals(listed, ["banners", "ungatekeep_posts", "toolkits", "toolkit_items"]);
  const kept = await Promise.all([onBanner, onPost, unused].map((file) => files.metadata(file.id)));
  assertEquals(kept.map((meta) => meta !== null), [true, true, false]);
});

Deno.test("a toolkit cover that names an upload keeps it; a cover elsewhere names none", async () => {
  using raw = await Deno.openKv(":memory:");
  const { kv, listed } = listing(raw);
  const files = new KvObjectStore(raw);
  const log = createLogger("error", () => {});
  const [onCover, unused] = await Promise.all([1, 2].map((n) => files.put(new Uint8Array([n]), "image/png")));
  await raw.set([...TOOLKITS_PREFIX, "t1"], { id: "t1", coverImageUrl: `/api/files/${onCover.id}` });
  await raw.set([...TOOLKITS_PREFIX, "t2"], {
    id: "t2",
    coverImageUrl: `https://cdn.example.com/api/files/${unused.id}`,
  });
  await deleteUnusedImages(kv, { files, log }, [onCover.id, unused.id], { message: "toolkit cover not deleted" });
  assertEquals(listed, ["banners", "ungatekeep_posts", "toolkits", "toolkit_items"]);
  const kept = await Promise.all([onCover, unused].map((file) => files.metadata(file.id)));
  assertEquals(kept.map((meta) => meta !== null), [true, false]);
  assertEquals(
    [`/api/files/${onCover.id}`, "https://example.com/cover.png", "/api/files/a/b", null].map(uploadOf),
    [onCover.id, null, null, null],
  );
});

Deno.test("an image a lesson shows by its path keeps its upload; one at another site's address does not", async () => {
  using raw = await Deno.openKv(":memory:");
  const files = new KvObjectStore(raw);
  const log = createLogger("error", () => {});
  const [shown, linked, elsewhere] = await Promise.all(
    [1, 2, 3].map((n) => files.put(new Uint8Array([n]), "image/png")),
  );
  await raw.set([...LESSONS_PREFIX, "t1", "l1"], {
    id: "l1",
    content: `<p>See</p><img src="/api/files/${shown.id}" alt="" /><a href="/api/files/${linked.id}">the file</a>`,
  });
  await raw.set([...LESSONS_PREFIX, "t1", "l2"], {
    id: "l2",
    content: `<img src="https://cdn.example.com/api/files/${elsewhere.id}" alt="" />`,
  });
  await raw.set([...LESSONS_PREFIX, "t1", "l3"], { id: "l3", content: null });
  await deleteUnusedImages(raw, { files, log }, [shown.id, linked.id, elsewhere.id], { message: "cover not deleted" });
  const kept = await Promise.all([shown, linked, elsewhere].map((file) => files.metadata(file.id)));
  assertEquals(kept.map((meta) => meta !== null), [true, true, false]);
});
