/**
 * Shared steps of the social sign-in tests: a test app wired to two fake OpenID Connect
 * providers (Google's and LinkedIn's issuers), and the browser's side of the flow: start,
 * the provider's redirect back, and the callback, carrying cookies like a browser.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "@/tests/helpers/app.ts";
import { type FakeOidcProvider, startFakeOidcProvider } from "@/tests/fakes/oidc.ts";
import { cookieOf } from "./helpers.ts";

/** A test app with a fake provider for each of Google and LinkedIn. */
export interface SocialSetup extends AsyncDisposable {
  t: TestApp;
  google: FakeOidcProvider;
  linkedin: FakeOidcProvider;
}

/** Starts both fakes and an app pointed at them (`env` adds or overrides variables). */
export async function socialSetup(options: TestAppOptions = {}): Promise<SocialSetup> {
  const google = await startFakeOidcProvider({ issuer: "https://accounts.google.com" });
  const linkedin = await startFakeOidcProvider({ issuer: "https://www.linkedin.com/oauth" });
  const t = await createTestApp({
    ...options,
    env: { ...google.env("GOOGLE"), ...linkedin.env("LINKEDIN"), ...options.env },
  });
  return {
    t,
    google,
    linkedin,
    async [Symbol.asyncDispose]() {
      await t.close();
      await google.close();
      await linkedin.close();
    },
  };
}

/** A started sign-in: the provider's authorization URL and the browser's binding cookie. */
export interface Started {
  authorizationUrl: URL;
  binding: string;
}

/** `GET /api/auth/sign-in/social` as a browser would; expects the 302 to the provider. */
export async function startSocial(
  t: TestApp,
  query: Record<string, string>,
  cookie?: string,
): Promise<Started> {
  const res = await t.fetch(`/api/auth/sign-in/social?${new URLSearchParams(query)}`, {
    headers: cookie ? { cookie } : {},
  });
  await res.body?.cancel();
  assertEquals(res.status, 302, `start answered ${res.status}`);
  return { authorizationUrl: new URL(res.headers.get("location")!), binding: cookieOf(res) ?? cookie ?? "" };
}

/** Visits the provider's authorization URL; returns the callback path (with query) it redirects to. */
export async function authorizeAt(started: Started): Promise<string> {
  const res = await fetch(started.authorizationUrl, { redirect: "manual" });
  await res.body?.cancel();
  assertEquals(res.status, 302, `the fake provider answered ${res.status}`);
  const back = new URL(res.headers.get("location")!);
  return back.pathname + back.search;
}

/** Opens the callback path with `cookie` (the browser's cookies). */
export async function openCallback(t: TestApp, path: string, cookie: string): Promise<Response> {
  const res = await t.fetch(path, { headers: cookie ? { cookie } : {} });
  await res.body?.cancel();
  return res;
}

/** The whole flow for `provider`: start, consent at the fake, callback. */
export async function signInSocially(
  t: TestApp,
  provider: "google" | "linkedin",
  query: Record<string, string> = {},
): Promise<Response> {
  const started = await startSocial(t, { provider, ...query });
  return await openCallback(t, await authorizeAt(started), started.binding);
}
