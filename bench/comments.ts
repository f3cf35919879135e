/**
 * Comments benchmark (`deno task bench`, after the others): writes 40 live posts into a temporary KV file through the
 * domain modules, one of them with `BENCH_COMMENTS` comments (default 10,000: 8,000 top-level ones, and 2,000
 * replies, one to each of every fourth of the first top-level ones) and reactions from 300 readers, the others a few comments each; starts the real server (`main.ts`, a
 * separate process on 127.0.0.1) and measures over HTTP from one client, after warm-up requests:
 * - the first page of that post's comments (`GET /api/ungatekeep/{id}/comments`, 20 threads) for a guest and for a
 *   signed-in reader;
 * - the feed's first page with `commentCount` and `reactions` on every post (`GET /api/ungatekeep`, 20 posts, and
 *   `myReactions` for the reader) for a guest and for a signed-in reader;
 * targets p95 ≤ 15 ms. Prints a table, then stops the server and removes the files.
 */
import { HOST, latencyOf, startPlatform, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { react } from "@/lib/comments/reactions.ts";
import { REACTION_TYPES } from "@/lib/comments/limits.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { createPost, PostCreateSchema } from "@/lib/ungatekeep/posts.ts";
import { createUser, type User } from "@/lib/users/users.ts";

const COMMENTS = Number(Deno.env.get("BENCH_COMMENTS") ?? 10_000);
const POSTS = 40;
const READERS = 300;
const WARMUP = 20;
const SAMPLES = 300;
const TARGET_MS = 15;

const dir = await Deno.makeTempDir({ prefix: "comments-bench-" });
const kvPath = `${dir}/kv.sqlite3`;

const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;

/** The posts, the comments, the reactions and a reader's session, written straight into the KV file. */
async function seed() {
  const kv = await Deno.openKv(kvPath);
  const files = new KvObjectStore(kv);
  const admin = await createUser(kv, {
    name: "Bench admin",
    email: "admin@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const readers: User[] = [];
  for (let i = 0; i < READERS; i += 50) {
    readers.push(
      ...await Promise.all(Array.from({ length: 50 }, (_, j) =>
        createUser(kv, {
          name: `Reader ${i + j}`,
          email: `reader${i + j}@bench.example`,
          emailVerified: true,
          role: "user",
        }))),
    );
  }
  const now = Date.now();
  const posts = [];
  for (let n = 0; n < POSTS; n++) {
    posts.push(
      await createPost(
        kv,
        {
          files,
          author: admin,
          input: PostCreateSchema.parse({
            title: `Post ${n}`,
            content: `Line one of post ${n}.\nLine two.\n\n${"More text. ".repeat(40)}`,
            tag: "company_experience",
            isPublished: true,
            publishedAt: new Date(now - n * 60_000).toISOString(),
          }),
        },
      ),
    );
  }
  const busy = posts[0];
  // Each writer writes 10 comments (the rate limit), so the 10,000 come from 1,000 writers.
  const writers: User[] = [];
  for (let n = 0; n * 10 < COMMENTS; n++) {
    writers.push(
      await createUser(kv, {
        name: `Writer ${n}`,
        email: `writer${n}@bench.example`,
        emailVerified: true,
        role: "user",
      }),
    );
  }
  // Four in five are top-level comments; each reply answers one of the first top-level ones, every fourth.
  const tops: string[] = [];
  const replies = Math.floor(COMMENTS / 5);
  for (let i = 0; i < COMMENTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, COMMENTS - i) }, (_, j) => i + j);
    const written = await Promise.all(batch.map((n) => {
      const reply = n >= COMMENTS - replies ? n - (COMMENTS - replies) : -1;
      return createComment(kv, {
        postId: busy.id,
        author: writers[Math.floor(n / 10)],
        input: {
          content: `Comment ${n}: a question or an answer about the interview, with a link https://example.com/${n}.`,
          parentId: reply >= 0 ? tops[reply * 4] : undefined,
        },
        appUrl: "http://bench.example",
      });
    }));
    tops.push(...written.flatMap(({ comment }) => comment.parentId === null ? [comment.id] : []));
  }
  for (const [r, reader] of readers.entries()) {
    await react(kv, { postId: busy.id, user: reader, type: REACTION_TYPES[r % 3], on: true });
    if (r < 40) {
      await react(kv, { postId: posts[r].id, user: reader, type: "helpful", on: true });
      if (r > 0) {
        await createComment(kv, {
          postId: posts[r].id,
          author: reader,
          input: { content: `Thanks for post ${r}` },
          appUrl: "http://bench.example",
        });
      }
    }
  }
  const readerCookie = `session=${(await createSession(kv, readers[0].id)).token}`;
  kv.close();
  return { postId: busy.id, readerCookie };
}

const seedStarted = performance.now();
const { postId, readerCookie } = await seed();
const seedMs = performance.now() - seedStarted;
const { origin, process: server } = startPlatform(kvPath, { JOBS: "off" });

try {
  await waitFor(`${origin}/api/health`);
  const reader = { cookie: readerCookie };
  const comments = `${origin}/api/ungatekeep/${postId}/comments`;
  const feed = `${origin}/api/ungatekeep`;
  const latency = (url: string, headers: HeadersInit) =>
    latencyOf(() => url, { headers, warmup: WARMUP, samples: SAMPLES });
  const commentsGuest = await latency(comments, {});
  const commentsSignedIn = await latency(comments, reader);
  const feedGuest = await latency(feed, {});
  const feedSignedIn = await latency(feed, reader);
  const { comments: threads, pagination } = commentsGuest.body as {
    comments: { replies: unknown[] }[];
    pagination: { total: number };
  };
  const entries = threads.length + threads.reduce((n, t) => n + t.replies.length, 0);
  const posts = (feedSignedIn.body as { posts: { commentCount: number; myReactions?: unknown }[] }).posts;
  if (posts[0].commentCount !== COMMENTS || posts[0].myReactions === undefined) throw new Error("feed counts wrong");

  console.log(
    `\nComments benchmark: one post with ${COMMENTS} comments (${pagination.total} threads), ${POSTS} posts, ` +
      `${READERS} readers reacting (written in ${Math.round(seedMs / 1000)} s), ${SAMPLES} samples after ${WARMUP} ` +
      `warm-up, one client on ${HOST}\n`,
  );
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  const row = (name: string, { p50, p95 }: { p50: number; p95: number }) =>
    console.log(
      `| ${name} | p50 ${ms(p50)} / p95 ${ms(p95)} | p95 ≤ ${TARGET_MS} ms | ${p95 <= TARGET_MS ? "yes" : "NO"} |`,
    );
  row(
    `GET /api/ungatekeep/{id}/comments, guest (first page: ${threads.length} threads, ${entries} comments)`,
    commentsGuest,
  );
  row("GET /api/ungatekeep/{id}/comments, signed in", commentsSignedIn);
  row("GET /api/ungatekeep with counts, guest (3 posts)", feedGuest);
  row(`GET /api/ungatekeep with counts and myReactions, signed in (${posts.length} posts)`, feedSignedIn);
  if ([commentsGuest, commentsSignedIn, feedGuest, feedSignedIn].some(({ p95 }) => p95 > TARGET_MS)) Deno.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
