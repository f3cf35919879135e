/** What the trust API tests share: a JSON call that answers status and body, and listing creators. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";

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

/** Posts one internship as `owner` (a valid body with `fields` over it); answers the created internship. */
export async function postInternship(t: TestApp, owner: TestUser, fields: Record<string, unknown> = {}) {
  const res = await call(t, owner, "POST", "/api/internships", internshipBody(fields));
  assertEquals(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** Submits a hackathon as `who` (`fields` over a valid body); answers the created opportunity. */
export async function postOpportunity(t: TestApp, who: TestUser, fields: Record<string, unknown> = {}) {
  const res = await call(t, who, "POST", "/api/opportunities", {
    title: "Campus Hack",
    type: "hackathon",
    startDate: "2099-01-01",
    endDate: "2099-01-02",
    ...fields,
  });
  assertEquals(res.status, 201, JSON.stringify(res.body));
  return res.body.opportunity;
}

/** The moderation state of a listing that asks applicants to pay. */
export const HELD_TO_PAY = { status: "held", reasons: ["Asks applicants to pay"] };
/** The moderation state of a listing nothing holds. */
export const CLEAR = { status: "clear", reasons: [] };
