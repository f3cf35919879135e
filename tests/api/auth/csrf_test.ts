import { getUserByEmail } from "@/lib/users/users.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import manifest from "@/routes.gen.ts";
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

/**
 * The pages' forms under the login-CSRF rule (docs/decisions.md, Security): the auth forms, which post to themselves,
 * and the language switch, which a guest posts without a session cookie yet keeps a cookie.
 */
const LOGIN_RULE_PAGES = [
  "./routes/sign-in.tsx",
  "./routes/sign-up.tsx",
  "./routes/forgot-password.tsx",
  "./routes/reset-password.tsx",
  "./routes/verify-email.tsx",
  "./routes/language.ts",
];

/** Every route module of the manifest that takes a POST under the login-CSRF rule: `/api/auth/**` and those pages. */
function loginWrites(): { file: string; path: string; options: unknown }[] {
  return Object.entries(manifest.routes).flatMap(([file, mod]) => {
    const listed = file.startsWith("./routes/api/auth/") || LOGIN_RULE_PAGES.includes(file);
    const handler = (mod as { handler?: Record<string, unknown> }).handler;
    if (!listed || typeof handler?.POST !== "function") return [];
    const path = file.slice("./routes".length).replace(/\.tsx?$/, "");
    return [{ file, path, options: (mod as { routeOptions?: unknown }).routeOptions }];
  });
}

Deno.test('every auth module with a POST, each auth form page and the language switch declare originCheck: "login"', () => {
  const writes = loginWrites();
  for (const page of LOGIN_RULE_PAGES) assert(writes.some((w) => w.file === page), `${page} takes no POST`);
  assert(writes.length >= LOGIN_RULE_PAGES.length + 8, `only ${writes.length} auth writes found`);
  for (const { file, options } of writes) {
    assertEquals((options as { originCheck?: unknown } | undefined)?.originCheck, "login", file);
  }
  for (const [file, mod] of Object.entries(manifest.routes)) {
    const declared = (mod as { routeOptions?: { originCheck?: unknown } }).routeOptions?.originCheck === "login";
    if (declared) assert(writes.some((w) => w.file === file), `${file} declares the login rule but is not listed`);
  }
});

Deno.test("a foreign-Origin POST to every write under the login rule is 403 with no Set-Cookie", async () => {
  await using t = await createTestApp();
  for (const { path } of loginWrites()) {
    const page = !path.startsWith("/api/");
    const res = await t.fetch(path, {
      method: "POST",
      headers: page
        ? { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }
        : { ...json, origin: "https://evil.example" },
      body: page ? "email=a%40example.com&password=x" : JSON.stringify({ email: "a@example.com", password: PASSWORD }),
    });
    assertEquals(res.status, 403, path);
    assertEquals(res.headers.get("set-cookie"), null, path);
    await res.body?.cancel();
  }
});
