/** Shared steps of the auth API tests: accounts with passwords, cookies, links from e-mails. */
import { hashPassword } from "@/lib/auth/passwords.ts";
import type { Mail } from "@/lib/mail/mailer.ts";
import { createUser, type User } from "@/lib/users/users.ts";
import type { TestApp } from "@/tests/helpers/app.ts";

/** The password every test account gets unless told otherwise. */
export const PASSWORD = "correct horse battery";

/** A user created directly in KV with `PASSWORD` (verified unless told otherwise). */
export async function passwordUser(
  t: TestApp,
  fields: { email?: string; name?: string; verified?: boolean; password?: string } = {},
): Promise<User> {
  return await createUser(t.kv, {
    name: fields.name ?? "Asha Rao",
    email: fields.email ?? `asha-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerified: fields.verified ?? true,
    role: "user",
    passwordHash: await hashPassword(fields.password ?? PASSWORD),
  });
}

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
