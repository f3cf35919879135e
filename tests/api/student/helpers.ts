/** What the student-space API tests share. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";

/** Submits a hackathon titled `title` as `who` through `POST /api/opportunities`; returns the created opportunity. */
export async function submitOpportunity(t: TestApp, who: TestUser, title = "Campus Hack") {
  const res = await t.json("POST", "/api/opportunities", {
    body: { title, type: "hackathon", startDate: "2099-01-01", endDate: "2099-01-02" },
    headers: who.headers,
  });
  assertEquals(res.status, 201);
  return (await res.json()).opportunity;
}
