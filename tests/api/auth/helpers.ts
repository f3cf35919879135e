/** Shared steps of the auth API tests: cookies, and links from e-mails. */
import type { Mail } from "@/lib/mail/mailer.ts";
import type { TestApp } from "@/tests/helpers/app.ts";
import { PASSWORD } from "@/tests/fixtures/people.ts";

/** The `name=value` part of a response's `Set-Cookie`, or undefined. */
export function cookieOf(res: Response): string | undefined {
  return res.headers.get("set-cookie")?.split(";")[0];
}

/** Signs in through the API and returns the `Cookie` header value. @throws Error unless 200. */
export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<string> {
  const res = await t.json("POST", "/api/auth/sign-in/email", { body: { email, password } });
  await res.body?.cancel();
  const cookie = cookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

/** The last mail captured for `to`, once the deliveries started have settled. @throws Error when there is none. */
export async function lastMailTo(t: TestApp, to: string): Promise<Mail> {
  await t.settled();
  const mail = t.mails.findLast((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/**
 * The `count`-th mail captured for `to`, waiting up to 5 s for it: for mails sent after the
 * request has answered (a password reset). @throws Error on timeout.
 */
export async function waitForMail(t: TestApp, to: string, count = 1): Promise<Mail> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = t.mails.filter((m) => m.to === to);
    if (mails.length >= count) return mails[count - 1];
    if (Date.now() > deadline) throw new Error(`no mail number ${count} to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The `token` query parameter of a link. */
export function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

/** `link` as a path with query, for `t.fetch`. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}
