/** Shared helpers of the opportunity API tests: a valid submission body and a quick submitter. */
import { assertEquals } from "../../helpers/assert.ts";
import type { TestApp, TestUser } from "../../helpers/app.ts";
import type { OpportunityView } from "../../../lib/opportunities/types.ts";

/** A valid submission body; `fields` override or add fields. */
export function opportunityBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Campus Hackathon",
    description: "Build something in 36 hours",
    location: "Bengaluru",
    type: "hackathon",
    startDate: "2030-03-01",
    endDate: "2030-03-02",
    link: "https://hack.example.com",
    organizer: "Example Society",
    ...fields,
  };
}

/** Submits an opportunity as `owner` through the API (expects 201) and returns it. */
export async function submit(
  t: TestApp,
  owner: TestUser,
  fields: Record<string, unknown> = {},
): Promise<OpportunityView> {
  const res = await t.json("POST", "/api/opportunities", opportunityBody(fields), owner.headers);
  assertEquals(res.status, 201);
  return (await res.json()).opportunity;
}

/** Approves or rejects as `admin` (expects 200) and returns the opportunity. */
export async function review(t: TestApp, admin: TestUser, id: string, action: string): Promise<OpportunityView> {
  const res = await t.json("PATCH", `/api/admin/opportunities/${id}`, { action }, admin.headers);
  assertEquals(res.status, 200);
  return (await res.json()).opportunity;
}

/** Titles of a list response at `path` as `who` (or a guest), in order. */
export async function titles(t: TestApp, path: string, who?: TestUser): Promise<string[]> {
  const res = await t.fetch(path, { headers: who?.headers });
  assertEquals(res.status, 200, path);
  return (await res.json()).opportunities.map((o: { title: string }) => o.title);
}
