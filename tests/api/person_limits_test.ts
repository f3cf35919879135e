/**
 * Per-person limits (docs/decisions.md, Errors and limits, "Per-person limits"): every route a person writes through
 * declares the limit it falls under, unless it has limits of its own or only trusted roles reach it; past a limit the
 * person is answered 429 with `Retry-After` and another person is not; the data export counts reads.
 */
import manifest from "@/routes.gen.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { newUnsubscribeToken } from "@/lib/alerts/unsubscribe.ts";

/** Write routes without a per-person limit, each with the reason. */
const EXEMPT: Record<string, string> = {
  "./routes/api/auth/": "the auth limits, per e-mail and per address",
  "./routes/sign-in.tsx": "the auth limits",
  "./routes/sign-up.tsx": "the auth limits",
  "./routes/forgot-password.tsx": "the auth limits",
  "./routes/reset-password.tsx": "a single-use token",
  "./routes/verify-email.tsx": "a single-use token",
  "./routes/sign-out.ts": "ends the caller's own session",
  "./routes/api/admin/": "admins only",
  "./routes/admin/": "admins only",
  "./routes/api/webhooks/razorpay.ts": "the gateway, by its signature",
  "./routes/api/ungatekeep/[id]/comments.ts": "its own limit, 10 a minute, in the comment's own write",
  "./routes/api/me/index.ts": "account deletion: its own limit per session",
  "./routes/profile/delete.tsx": "account deletion: the same limit per session as the API's",
  "./routes/api/internships/": "members and admins only (and ingest keys)",
  "./routes/api/organizations/": "an organization's own admins only",
  "./routes/organizations/": "claims have their own limits; edits by the organization's managers only",
  "./routes/api/reports/": "its own limit, 20 reports a day per person",
  "./routes/report.tsx": "the reports' own limit, 20 a day per person",
  "./routes/api/toolkits/index.ts": "admins only",
};

Deno.test("every route a person writes through declares its per-person limit, or says why it has none", () => {
  const missing: string[] = [];
  for (const [path, module] of Object.entries(manifest.routes)) {
    const handler = (module as { handler?: unknown }).handler;
    const methods = handler && typeof handler === "object" ? Object.keys(handler) : [];
    if (!methods.some((m) => ["POST", "PUT", "PATCH", "DELETE"].includes(m))) continue;
    if (Object.keys(EXEMPT).some((prefix) => path === prefix || (prefix.endsWith("/") && path.startsWith(prefix)))) {
      continue;
    }
    const declared = (module as { routeOptions?: { personLimit?: string } }).routeOptions?.personLimit;
    if (!declared || !(declared in PERSON_LIMITS)) missing.push(path);
  }
  assertEquals(missing, []);
});

Deno.test("past the settings limit a person gets 429 with Retry-After; another person does not; export counts reads", async () => {
  await using t = await createTestApp({ rateLimitClock: stillClock() });
  const [asha, ravi] = [await createTestUser(t), await createTestUser(t)];
  const patch = (who: typeof asha) =>
    t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: who.headers });
  for (let i = 0; i < PERSON_LIMITS.settings.limit; i++) {
    const res = await patch(asha);
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const refused = await patch(asha);
  assertEquals(refused.status, 429);
  assert(Number(refused.headers.get("retry-after")) > 0);
  assert((await refused.json()).error);
  const other = await patch(ravi);
  assertEquals(other.status, 200);
  await other.body?.cancel();
  // Reading settings is not limited; the export, which reads everything, is.
  assertEquals((await t.fetch("/api/me/settings", { headers: asha.headers })).status, 200);
  for (let i = 0; i < PERSON_LIMITS.export.limit; i++) {
    const res = await t.fetch("/api/me/export", { headers: ravi.headers });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  assertEquals((await t.fetch("/api/me/export", { headers: ravi.headers })).status, 429);
});

Deno.test("one-click unsubscribes without a session count per link: many people's from one mail provider all go through", async () => {
  await using t = await createTestApp({ rateLimitClock: stillClock() });
  // A mail provider sends its users' one-click requests (RFC 8058) from a few addresses of its own: here all from one.
  const limit = PERSON_LIMITS.unsubscribe.limit;
  const links: string[] = [];
  for (let i = 0; i <= limit; i++) {
    const { user } = await createTestUser(t);
    const link = await newUnsubscribeToken({ userId: user.id, kind: "reminders" });
    const op = t.kv.atomic();
    link.write(op);
    assert((await op.commit()).ok);
    links.push(`/unsubscribe/${link.token}`);
  }
  for (const link of links) {
    const res = await t.fetch(link, { method: "POST" });
    assertEquals(res.status, 200, link);
    await res.body?.cancel();
  }
  // One link is still limited: a script cannot turn it into a write flood.
  for (let i = 1; i < limit; i++) await (await t.fetch(links[0], { method: "POST" })).body?.cancel();
  const refused = await t.fetch(links[0], { method: "POST" });
  assertEquals(refused.status, 429);
  await refused.body?.cancel();
});

Deno.test("a mail provider's one-click requests with real tokens never count against its address's cap", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  // After a large send, more people than the address cap unsubscribe through one provider's address.
  const cap = PERSON_LIMITS.unsubscribe.guestByPath!.limit;
  const { user } = await createTestUser(t);
  const links: string[] = [];
  let op = t.kv.atomic();
  for (let i = 0; i <= cap; i++) {
    const link = await newUnsubscribeToken({ userId: user.id, kind: "reminders" });
    link.write(op);
    links.push(`/unsubscribe/${link.token}`);
    if (links.length % 200 === 0 || i === cap) {
      assert((await op.commit()).ok);
      op = t.kv.atomic();
    }
  }
  const post = async (path: string) => {
    const res = await t.fetch(path, { method: "POST", headers: { "x-forwarded-for": "198.51.100.7" } });
    await res.body?.cancel();
    return res.status;
  };
  for (const link of links) assertEquals(await post(link), 200, link);
  // The address's cap is untouched: a made-up link from it is answered, not refused.
  assertEquals(await post("/unsubscribe/made-up-token-000000"), 404);
});

Deno.test("one address making up unsubscribe links is refused past its own cap, before a counter per path", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  const cap = PERSON_LIMITS.unsubscribe.guestByPath!.limit;
  const made = (i: number) => `/unsubscribe/made-up-token-${String(i).padStart(6, "0")}`;
  const post = (path: string, address: string) =>
    t.fetch(path, { method: "POST", headers: { "x-forwarded-for": address } });
  for (let i = 0; i < cap; i++) {
    const res = await post(made(i), "198.51.100.7");
    await res.body?.cancel();
    assert(res.status !== 429, `${made(i)} is not refused yet`);
  }
  const counters = async () => (await Array.fromAsync(t.kv.list({ prefix: ["rate_limits"] }))).length;
  const before = await counters();
  const refused = await post(made(cap), "198.51.100.7");
  await refused.body?.cancel();
  assertEquals(refused.status, 429);
  assertEquals(await counters(), before, "a refused request writes no counter");
  // Another address's person is not held back by it.
  const { user } = await createTestUser(t);
  const link = await newUnsubscribeToken({ userId: user.id, kind: "reminders" });
  const op = t.kv.atomic();
  link.write(op);
  assert((await op.commit()).ok);
  const theirs = await post(`/unsubscribe/${link.token}`, "203.0.113.9");
  await theirs.body?.cancel();
  assertEquals(theirs.status, 200);
});
