/**
 * Ungatekeep benchmark (`deno task bench`, after the others): writes `BENCH_POSTS` posts (default
 * 10,000: a few pinned, some drafts, some scheduled for later) straight into a temporary KV file
 * through the domain module, starts the real server (`main.ts`, a separate process on 127.0.0.1)
 * and measures over HTTP from one client:
 * - the feed's first page (`GET /api/ungatekeep`) p50/p95 for a guest and for a signed-in user
 *   (target p95 ≤ 25 ms), after warm-up requests;
 * - the upload of a 5 MB image (`POST /api/admin/uploads`) and its first download
 *   (`GET /api/files/{id}`): time of each and the server's RSS before, after and at peak.
 * Prints a table, then stops the server and removes the files.
 */
import { HOST, latencyOf, rssMb, startPlatform, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { gradientPng, paddedPng } from "@/lib/demo/images.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { MAX_IMAGE_BYTES } from "@/lib/files/images.ts";
import { createPost, PostCreateSchema } from "@/lib/ungatekeep/posts.ts";
import { POST_TAGS } from "@/lib/ungatekeep/tags.ts";
import { createUser } from "@/lib/users/users.ts";

const POSTS = Number(Deno.env.get("BENCH_POSTS") ?? 10_000);
const WARMUP = 20;
const SAMPLES = 300;
const DAY = 24 * 60 * 60 * 1000;

const dir = await Deno.makeTempDir({ prefix: "ungatekeep-bench-" });
const kvPath = `${dir}/kv.sqlite3`;

const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;
const mb = (n: number) => `${Math.round(n)} MB`;

/** The posts, an admin and a reader with sessions, written straight into the KV file. */
async function seed() {
  const kv = await Deno.openKv(kvPath);
  const files = new KvObjectStore(kv);
  const admin = await createUser(kv, {
    name: "Bench admin",
    email: "admin@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const reader = await createUser(kv, {
    name: "Bench reader",
    email: "reader@bench.example",
    emailVerified: true,
    role: "user",
  });
  const now = Date.now();
  for (let i = 0; i < POSTS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, POSTS - i) }, (_, j) => {
      const n = i + j;
      return createPost(
        kv,
        {
          files,
          author: admin,
          input: PostCreateSchema.parse({
            title: `Post ${n}`,
            content: `Line one of post ${n} with **some** markdown.\nLine two.\n\n${"More text. ".repeat(40)}`,
            tag: POST_TAGS[n % 3],
            isPinned: n % 2000 === 0,
            isPublished: n % 97 !== 0,
            publishedAt: new Date(n % 503 === 0 ? now + 7 * DAY : now - n * 60_000).toISOString(),
          }),
        },
      );
    }));
  }
  const cookie = async (id: string) => `session=${(await createSession(kv, id)).token}`;
  const result = { adminCookie: await cookie(admin.id), readerCookie: await cookie(reader.id) };
  kv.close();
  return result;
}

const seedStarted = performance.now();
const { adminCookie, readerCookie } = await seed();
const seedMs = performance.now() - seedStarted;
const { origin, process: server } = startPlatform(kvPath, { RATE_LIMITS: "off" });

try {
  await waitFor(`${origin}/api/health`);
  const latency = (headers: HeadersInit) =>
    latencyOf(() => `${origin}/api/ungatekeep`, { headers, warmup: WARMUP, samples: SAMPLES });
  const { p50: g50, p95: g95, body: guestBody } = await latency({});
  const { p50: u50, p95: u95, body: userBody } = await latency({ cookie: readerCookie });
  const { total, hiddenCount } = guestBody as { total: number; hiddenCount: number };
  const userPosts = (userBody as { posts: unknown[] }).posts.length;

  const image = paddedPng(
    gradientPng({ width: 64, height: 64, from: [10, 20, 30], to: [200, 100, 50] }),
    MAX_IMAGE_BYTES,
  );
  const rssBefore = rssMb(server.pid, "VmRSS");
  const form = new FormData();
  form.set("file", new Blob([image as Uint8Array<ArrayBuffer>], { type: "image/png" }), "big.png");
  const uploadStarted = performance.now();
  const uploaded = await fetch(`${origin}/api/admin/uploads`, {
    method: "POST",
    headers: { cookie: adminCookie, origin },
    body: form,
  });
  const { url } = await uploaded.json();
  const uploadMs = performance.now() - uploadStarted;
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}`);
  const downloadStarted = performance.now();
  const downloaded = new Uint8Array(await (await fetch(`${origin}${url}`)).arrayBuffer());
  const downloadMs = performance.now() - downloadStarted;
  if (downloaded.length !== image.length) throw new Error("download size differs");
  const rssAfter = rssMb(server.pid, "VmRSS");
  const rssPeak = rssMb(server.pid, "VmHWM");

  console.log(
    `\nUngatekeep benchmark: ${POSTS} posts (${total} live, written in ${Math.round(seedMs / 1000)} s), ` +
      `${SAMPLES} samples after ${WARMUP} warm-up, one client on ${HOST}\n`,
  );
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  console.log(
    `| GET /api/ungatekeep, guest (3 posts, hiddenCount ${hiddenCount}) | p50 ${ms(g50)} / p95 ${
      ms(g95)
    } | p95 ≤ 25 ms | ${g95 <= 25 ? "yes" : "NO"} |`,
  );
  console.log(
    `| GET /api/ungatekeep, signed in (first page, ${userPosts} posts) | p50 ${ms(u50)} / p95 ${
      ms(u95)
    } | p95 ≤ 25 ms | ${u95 <= 25 ? "yes" : "NO"} |`,
  );
  console.log(`| POST /api/admin/uploads, 5 MB image | ${ms(uploadMs)} | | |`);
  console.log(`| GET /api/files/{id}, first download of it | ${ms(downloadMs)} | | |`);
  console.log(
    `| Server RSS around upload + download | before ${mb(rssBefore)}, after ${mb(rssAfter)}, peak ${mb(rssPeak)} | | |`,
  );
  if (g95 > 25 || u95 > 25) Deno.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
