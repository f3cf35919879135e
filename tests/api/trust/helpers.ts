/** What the trust API tests share: a JSON call that answers status and body, and moderation states. */
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";

/** Calls `path` as `who` (a guest when undefined) with a JSON `body`; answers the status and the parsed body. */
export async function call(
  t: TestApp,
  who: TestUser | undefined,
  method: string,
  path: string,
  body?: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await t.json(method, path, { body, headers: who?.headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The moderation state of a listing that asks applicants to pay. */
export const HELD_TO_PAY = { status: "held", reasons: ["Asks applicants to pay"] };
/** The moderation state of a listing nothing holds. */
export const CLEAR = { status: "clear", reasons: [] };

/** Presses "Verify" on the claim link page `path` as `who` (a guest when undefined); answers the status and page. */
export async function confirmClaim(t: TestApp, who: TestUser | undefined, path: string) {
  const res = await t.fetch(path, {
    method: "POST",
    headers: { ...who?.headers, "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });
  return { status: res.status, html: await res.text() };
}
