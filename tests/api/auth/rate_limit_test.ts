import { assert, assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { loadConfig } from "@/app.config.ts";
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

Deno.test("behind a proxy that appends, the address is the hop it appended: a forged first hop changes nothing", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    // What nginx's `$proxy_add_x_forwarded_for` forwards: the client's own header, then the peer it saw.
    const body = { email: "asha@example.com", password: `guess-${i}` };
    const res = await post(t, "/api/auth/sign-in/email", body, `10.66.${i}.1, 203.0.113.7`);
    statuses.push(res.status);
  }
  assertEquals(statuses, [401, 401, 401, 401, 401, 429]);
  const right = { email: "asha@example.com", password: PASSWORD };
  assertEquals((await post(t, "/api/auth/sign-in/email", right, "203.0.113.7, 203.0.113.8")).status, 200);
});

Deno.test("TRUST_PROXY=2 takes the hop the outer of two proxies appended", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "2" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  const guess = (i: number, xff: string) =>
    post(t, "/api/auth/sign-in/email", { email: "asha@example.com", password: `guess-${i}` }, xff);
  for (let i = 0; i < 5; i++) assertEquals((await guess(i, `10.66.${i}.1, 203.0.113.7, 10.0.0.2`)).status, 401);
  assertEquals((await guess(5, "203.0.113.7, 10.0.0.3")).status, 429);
  assertEquals((await guess(6, "198.51.100.1, 203.0.113.7, 10.0.0.2")).status, 429);
  assertEquals((await guess(7, "203.0.113.9, 10.0.0.2")).status, 401);
});

Deno.test("TRUST_PROXY is false, true (one proxy) or how many proxies, 1 to 10; anything else stops the start", () => {
  assertEquals(loadConfig({}).proxyHops, 0);
  const hops = ["false", "true", "1", "3", "10"].map((value) => loadConfig({ TRUST_PROXY: value }).proxyHops);
  assertEquals(hops, [0, 1, 1, 3, 10]);
  for (const value of ["yes", "0", "11", "1.5", "-1"]) {
    assertThrows(() => loadConfig({ TRUST_PROXY: value }), /TRUST_PROXY/, value);
  }
});

Deno.test("an IPv6 client is limited by its /64: other addresses of the same /64 share its count", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  const guess = (i: number, ip: string) =>
    post(t, "/api/auth/sign-in/email", { email: "asha@example.com", password: `guess-${i}` }, ip);
  for (let i = 0; i < 5; i++) assertEquals((await guess(i, `2001:db8:1:2::${i + 1}`)).status, 401);
  assertEquals((await guess(5, "2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).status, 429);
  assertEquals((await guess(6, "2001:db8:1:3::1")).status, 401);
  // An IPv4 client reached over IPv6 (`::ffff:a.b.c.d`) is its IPv4 address, not the /64 of every such client.
  for (let i = 7; i < 12; i++) assertEquals((await guess(i, `::ffff:198.51.100.${i}`)).status, 401);
});

Deno.test("sign-in: the 21st try for one e-mail in 10 minutes is 429 from any address, on the API and the page", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  for (let i = 0; i < 20; i++) {
    const res = await post(
      t,
      "/api/auth/sign-in/email",
      { email: "asha@example.com", password: "wrong" },
      `10.1.${i}.1`,
    );
    assertEquals(res.status, 401);
  }
  const right = { email: "Asha@Example.com", password: PASSWORD };
  await assertLimited(
    await t.json("POST", "/api/auth/sign-in/email", { body: right, headers: { "x-forwarded-for": "10.2.0.1" } }),
    600,
  );
  const page = await t.fetch("/sign-in", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "10.2.0.2" },
    body: new URLSearchParams({ email: "asha@example.com", password: PASSWORD }),
    redirect: "manual",
  });
  await page.body?.cancel();
  assertEquals(page.status, 429);
  assertEquals(
    (await post(t, "/api/auth/sign-in/email", { email: "other@example.com", password: "w" }, "10.2.0.3")).status,
    401,
  );
});

Deno.test("a browser that signed in before still signs in while a stranger spends the e-mail's tries", async () => {
  await using t = await createTestApp({ env: { TRUST_PROXY: "true" }, rateLimitClock: stillClock() });
  await passwordUser(t, { email: "asha@example.com" });
  await passwordUser(t, { email: "ravi@example.com" });
  const signIn = (email: string, password: string, ip: string, cookie?: string) =>
    t.json("POST", "/api/auth/sign-in/email", {
      body: { email, password },
      headers: { "x-forwarded-for": ip, ...cookie ? { cookie } : {} },
    });
  const first = await signIn("asha@example.com", PASSWORD, "10.3.0.1");
  assertEquals(first.status, 200);
  await first.body?.cancel();
  const device = first.headers.getSetCookie().find((line) => line.startsWith("known_device="))!;
  assert(/HttpOnly/i.test(device) && /Max-Age=15552000/.test(device), device);
  const phone = device.split(";")[0];
  const other = await signIn("ravi@example.com", PASSWORD, "10.3.0.2");
  await other.body?.cancel();
  const raviPhone = other.headers.getSetCookie().find((line) => line.startsWith("known_device="))!.split(";")[0];
  // The first sign-in counted once against the e-mail: 19 more spend its 20.
  for (let i = 0; i < 19; i++) {
    const res = await signIn("asha@example.com", "wrong", `10.4.${i}.1`);
    await res.body?.cancel();
    assertEquals(res.status, 401);
  }
  const stranger = await signIn("asha@example.com", PASSWORD, "10.5.0.1");
  await stranger.body?.cancel();
  assertEquals(stranger.status, 429, "a browser that never signed in to the account waits");
  const forged = await signIn("asha@example.com", PASSWORD, "10.5.0.2", `known_device=${"A".repeat(43)}`);
  await forged.body?.cancel();
  assertEquals(forged.status, 429, "a made-up device id is no known device");
  const elsewhere = await signIn("asha@example.com", PASSWORD, "10.5.0.3", raviPhone);
  await elsewhere.body?.cancel();
  assertEquals(elsewhere.status, 429, "a device known to another account is not known to this one");
  const own = await signIn("asha@example.com", PASSWORD, "10.6.0.1", phone);
  await own.body?.cancel();
  assertEquals(own.status, 200, "the owner's phone signs in");
  const page = await t.fetch("/sign-in", {
    method: "POST",
    headers: {
      origin: t.origin,
      cookie: phone,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": "10.6.0.2",
    },
    body: new URLSearchParams({ email: "asha@example.com", password: PASSWORD }),
    redirect: "manual",
  });
  await page.body?.cancel();
  assertEquals(page.status, 303, "and the plain form too");
  assert(page.headers.getSetCookie().some((line) => line.startsWith("session=")));
  assert(page.headers.getSetCookie().some((line) => line.startsWith(phone)), "the same device id, kept longer");
  // Its two sign-ins above counted against the device: 18 more spend its 20.
  for (let i = 0; i < 18; i++) {
    const res = await signIn("asha@example.com", "wrong", `10.7.${i}.1`, phone);
    await res.body?.cancel();
    assertEquals(res.status, 401);
  }
  const spent = await signIn("asha@example.com", PASSWORD, "10.8.0.1", phone);
  await spent.body?.cancel();
  assertEquals(spent.status, 429, "a known device has its own 20 tries, not unlimited ones");
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
