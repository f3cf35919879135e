import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

async function post(t: TestApp, path: string, body: unknown, ip?: string): Promise<Response> {
  const res = await t.json("POST", path, { body, headers: ip ? { "x-forwarded-for": ip } : {} });
  await res.body?.cancel();
  return res;
}

async function assertLimited(res: Response, windowSeconds: number): Promise<void> {
  assertEquals(res.status, 429);
  assertEquals(res.headers.get("content-type"), "application/json");
  const retryAfter = Number(res.headers.get("retry-after"));
  assert(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds, `Retry-After ${retryAfter}`);
  assertEquals(await res.json(), { error: "Too many requests, try again later" });
}

Deno.test("sign-in: the 6th attempt in 10 seconds for one e-mail and IP is 429 with Retry-After", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  for (let i = 0; i < 5; i++) {
    const res = await post(t, "/api/auth/sign-in/email", { email: "asha@example.com", password: "wrong" }, "10.0.0.1");
    assertEquals(res.status, 401);
  }
  const right = { email: "ASHA@example.com", password: PASSWORD };
  await assertLimited(
    await t.json("POST", "/api/auth/sign-in/email", { body: right, headers: { "x-forwarded-for": "10.0.0.1" } }),
    10,
  );
  assertEquals((await post(t, "/api/auth/sign-in/email", right, "10.0.0.2")).status, 200);
  const other = { email: "other@example.com", password: "wrong" };
  assertEquals((await post(t, "/api/auth/sign-in/email", other, "10.0.0.1")).status, 401);
});

Deno.test("sign-in: the 61st attempt in a minute from one IP is 429, other IPs go on", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  const responses = await Promise.all(
    Array.from(
      { length: 60 },
      (_, i) => post(t, "/api/auth/sign-in/email", { email: `u${i}@example.com`, password: "wrong" }, "10.0.0.9"),
    ),
  );
  assertEquals(responses.map((r) => r.status), Array(60).fill(401));
  const over = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "x@example.com", password: "wrong" },
    headers: {
      "x-forwarded-for": "10.0.0.9",
    },
  });
  await assertLimited(over, 60);
  assertEquals(
    (await post(t, "/api/auth/sign-in/email", { email: "x@example.com", password: "w" }, "10.0.1.1")).status,
    401,
  );
});

Deno.test("sign-up: the 11th sign-up in a minute from one IP is 429 and creates nothing", async () => {
  await using t = await createTestApp({ rateLimitClock: stillClock() });
  for (let i = 0; i < 10; i++) {
    const res = await post(t, "/api/auth/sign-up/email", { name: "N", email: `n${i}@example.com`, password: PASSWORD });
    assertEquals(res.status, 200);
  }
  const over = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "N",
      email: "n10@example.com",
      password: PASSWORD,
    },
  });
  await assertLimited(over, 60);
  assertEquals((await t.kv.get(["users_by_email", "n10@example.com"])).value, null);
});

for (const path of ["/api/auth/forget-password", "/api/auth/send-verification-email"]) {
  Deno.test(`${path}: the 4th request in a minute for one e-mail is 429, known or not`, async () => {
    await using t = await createTestApp({ rateLimitClock: stillClock() });
    await passwordUser(t, { email: "asha@example.com", verified: false });
    for (const email of ["asha@example.com", "nobody@example.com"]) {
      for (let i = 0; i < 3; i++) assertEquals((await post(t, path, { email })).status, 200);
      await assertLimited(await t.json("POST", path, { body: { email: email.toUpperCase() } }), 60);
    }
    assertEquals((await post(t, path, { email: "third@example.com" })).status, 200);
  });
}

Deno.test("a huge forged X-Forwarded-For is limited like any IP, never a 500", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  const ip = "1".repeat(20_000);
  for (let i = 0; i < 10; i++) {
    const res = await post(
      t,
      "/api/auth/sign-up/email",
      { name: "N", email: `n${i}@example.com`, password: PASSWORD },
      ip,
    );
    assertEquals(res.status, 200);
  }
  const over = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "N",
      email: "z@example.com",
      password: PASSWORD,
    },
    headers: {
      "x-forwarded-for": ip,
    },
  });
  await assertLimited(over, 60);
});

Deno.test("RATE_LIMITS=off turns the limits off", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  await passwordUser(t, { email: "asha@example.com" });
  for (let i = 0; i < 12; i++) {
    const res = await post(t, "/api/auth/sign-in/email", { email: "asha@example.com", password: "wrong" });
    assertEquals(res.status, 401);
  }
  for (let i = 0; i < 5; i++) {
    assertEquals((await post(t, "/api/auth/forget-password", { email: "a@b.co" })).status, 200);
  }
});

for (const path of ["/api/auth/forget-password", "/api/auth/send-verification-email"]) {
  Deno.test(`${path}: the 11th request in a minute from one IP is 429 whatever the e-mail, other IPs go on`, async () => {
    await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
    for (let i = 0; i < 10; i++) {
      assertEquals((await post(t, path, { email: `p${i}@example.com` }, "10.0.0.7")).status, 200);
    }
    const over = await t.json("POST", path, {
      body: { email: "fresh@example.com" },
      headers: { "x-forwarded-for": "10.0.0.7" },
    });
    await assertLimited(over, 60);
    assertEquals((await post(t, path, { email: "fresh@example.com" }, "10.0.0.8")).status, 200);
  });
}
