/**
 * No redirect leaves the origin (docs/decisions.md, Auth, "Redirect targets stay on this origin"): every server
 * redirect built from a `callbackURL`, `newUserCallbackURL` or `redirectTo` ends on this origin, whatever encoding the
 * target carries (dot segments that leave `//host` once resolved, `%2e`, backslashes, tabs and newlines), also when one
 * redirect leads to another (a verification link or a social sign-in sent on to `/sign-in?callbackURL=…`).
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { cookieOf, lastMailTo, pathOf } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { authorizeAt, openCallback, socialSetup, startSocial } from "./social_helpers.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";

/** Targets that leave the origin only after a browser or URL parser has resolved them. */
const HOSTILE = [
  "/..//evil.example",
  "/.%2e//evil.example",
  "/%2e%2e//evil.example",
  "/%2E%2e//evil.example/x?y=1",
  "/a/..//evil.example",
  "/a/b/../..//evil.example",
  "/.//evil.example",
  "/..\\/evil.example",
  "/\\evil.example",
  "/\\\\evil.example",
  "/\t/evil.example",
  "/\t..//evil.example",
  "/..\n//evil.example",
  "//evil.example",
];

/** Follows the app's redirects from `location` with `cookie`; returns every Location seen. */
async function follow(t: TestApp, location: string, cookie: string): Promise<string[]> {
  const seen = [location];
  for (let hop = 0; hop < 5; hop++) {
    const next = new URL(seen.at(-1)!, t.origin);
    if (next.origin !== t.origin) break;
    const res = await t.fetch(next.pathname + next.search, { headers: { cookie } });
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (res.status !== 302 || !location) break;
    seen.push(location);
  }
  return seen;
}

function assertOnOrigin(t: TestApp, locations: string[], label: string) {
  for (const location of locations) {
    assertEquals(new URL(location, `${t.origin}/some/page`).origin, t.origin, `${label}: ${locations.join(" → ")}`);
  }
}

async function assertRefused(res: Response, code: string, label: string) {
  assertEquals(res.status, 400, label);
  assertEquals((await res.json()).code, code, label);
}

Deno.test("a signed-in user opening /sign-in?callbackURL=<hostile> goes to /", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  for (const target of HOSTILE) {
    const res = await t.fetch(`/sign-in?${new URLSearchParams({ callbackURL: target })}`, {
      headers: { cookie: user.cookie },
    });
    await res.body?.cancel();
    assertEquals([res.status, res.headers.get("location")], [302, "/"], JSON.stringify(target));
  }
});

Deno.test("a guest's sign-in page never hands a hostile callbackURL to the sign-in form", async () => {
  await using t = await createTestApp();
  for (const target of HOSTILE) {
    const res = await t.fetch(`/sign-in?${new URLSearchParams({ callbackURL: target })}`);
    assertEquals(res.status, 200);
    const html = await res.text();
    assert(!html.includes("evil.example"), JSON.stringify(target));
  }
});

Deno.test("the auth API refuses hostile callbackURL and redirectTo values with 400", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const account = await passwordUser(t);
  for (const target of HOSTILE) {
    const label = JSON.stringify(target);
    await assertRefused(
      await t.json("POST", "/api/auth/sign-in/email", {
        body: {
          email: account.email,
          password: PASSWORD,
          callbackURL: target,
        },
      }),
      "INVALID_CALLBACK_URL",
      `sign-in ${label}`,
    );
    await assertRefused(
      await t.json("POST", "/api/auth/sign-up/email", {
        body: {
          name: "Evil",
          email: `e${crypto.randomUUID().slice(0, 6)}@example.com`,
          password: PASSWORD,
          callbackURL: target,
        },
      }),
      "INVALID_CALLBACK_URL",
      `sign-up ${label}`,
    );
    await assertRefused(
      await t.json("POST", "/api/auth/send-verification-email", {
        body: { email: account.email, callbackURL: target },
      }),
      "INVALID_CALLBACK_URL",
      `send-verification-email ${label}`,
    );
    await assertRefused(
      await t.json("POST", "/api/auth/forget-password", { body: { email: account.email, redirectTo: target } }),
      "INVALID_REDIRECT_TO",
      `forget-password ${label}`,
    );
    await assertRefused(
      await t.fetch(`/api/auth/verify-email?${new URLSearchParams({ token: "x", callbackURL: target })}`),
      "INVALID_CALLBACK_URL",
      `verify-email ${label}`,
    );
  }
  await t.settled();
  assertEquals(t.mails.length, 0, "no mail carries a refused target");
});

Deno.test("a verification link sent on through /sign-in?callbackURL=<hostile> ends on this origin", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  for (const [i, target] of HOSTILE.entries()) {
    const email = `chain${i}@example.com`;
    const callbackURL = `/sign-in?${new URLSearchParams({ callbackURL: target })}`;
    const res = await t.json("POST", "/api/auth/sign-up/email", {
      body: {
        name: "Chain",
        email,
        password: PASSWORD,
        callbackURL,
      },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    const verify = await t.fetch(pathOf((await lastMailTo(t, email)).link), { headers: { cookie: cookieOf(res)! } });
    await verify.body?.cancel();
    assertEquals(verify.status, 302);
    const locations = await follow(t, verify.headers.get("location")!, cookieOf(verify)!);
    assertOnOrigin(t, locations, JSON.stringify(target));
    assertEquals(locations.at(-1), "/", JSON.stringify(target));
  }
});

Deno.test("social sign-in refuses hostile targets and, sent on through /sign-in, ends on this origin for new and returning users", async () => {
  await using s = await socialSetup();
  for (const target of HOSTILE) {
    for (const field of ["callbackURL", "newUserCallbackURL"] as const) {
      const query = new URLSearchParams({ provider: "google", [field]: target });
      const code = field === "callbackURL" ? "INVALID_CALLBACK_URL" : "INVALID_NEW_USER_CALLBACK_URL";
      await assertRefused(await s.t.fetch(`/api/auth/sign-in/social?${query}`), code, `${field} ${target}`);
    }
  }
  for (const [i, target] of HOSTILE.entries()) {
    s.google.identity = { sub: `g-${i}`, email: `social${i}@example.com`, email_verified: true, name: "Social" };
    const chained = `/sign-in?${new URLSearchParams({ callbackURL: target })}`;
    for (const who of ["new", "returning"]) {
      const started = await startSocial(s.t, { provider: "google", callbackURL: chained, newUserCallbackURL: chained });
      const res = await openCallback(s.t, await authorizeAt(started), started.binding);
      assertEquals(res.status, 302);
      const locations = await follow(s.t, res.headers.get("location")!, cookieOf(res)!);
      assertOnOrigin(s.t, locations, `${who} ${JSON.stringify(target)}`);
      assertEquals(locations.at(-1), "/", `${who} ${JSON.stringify(target)}`);
    }
  }
});

Deno.test("an onboarded user opening /onboarding?callbackURL=<hostile>, directly or through /sign-in, stays on this origin", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  await saveOnboardingProfile(t.kv, user.user.id, { persona: "society" });
  for (const target of HOSTILE) {
    for (const callbackURL of [target, `/sign-in?${new URLSearchParams({ callbackURL: target })}`]) {
      const path = `/onboarding?${new URLSearchParams({ callbackURL })}`;
      const res = await t.fetch(path, { headers: { cookie: user.cookie } });
      await res.body?.cancel();
      const locations = res.status === 302 ? await follow(t, res.headers.get("location")!, user.cookie) : [path];
      assertOnOrigin(t, locations, JSON.stringify(callbackURL));
    }
  }
});
