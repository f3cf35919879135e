import { getUserByEmail } from "@/lib/users/users.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

const json = { "content-type": "application/json" };

Deno.test("login CSRF: sign-in from a foreign Origin is 403 and sets no cookie, even without a session", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "attacker@example.com" });
  for (const origin of ["https://evil.example", "null", "http://localhost:8001"]) {
    const res = await t.fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { ...json, origin },
      body: JSON.stringify({ email: "attacker@example.com", password: PASSWORD }),
    });
    assertEquals(res.status, 403, origin);
    assertEquals(res.headers.get("set-cookie"), null);
    assertEquals(await res.json(), { error: "Invalid origin" });
  }
});

Deno.test("a cross-site sign-up (Sec-Fetch-Site or foreign Origin) is 403 and creates nothing", async () => {
  await using t = await createTestApp();
  const body = JSON.stringify({ name: "X", email: "x@example.com", password: PASSWORD });
  for (const headers of [{ ...json, origin: "https://evil.example" }, { ...json, "sec-fetch-site": "cross-site" }]) {
    const res = await t.fetch("/api/auth/sign-up/email", { method: "POST", headers, body });
    assertEquals(res.status, 403);
    await res.body?.cancel();
  }
  assertEquals(await getUserByEmail(t.kv, "x@example.com"), null);
});

Deno.test("auth requests without Origin (non-browser clients) are served", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "cli@example.com" });
  const res = await t.fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: "cli@example.com", password: PASSWORD }),
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
});
