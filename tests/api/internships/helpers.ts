/** Shared helpers of the internship API tests: a valid create body and a quick creator. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";
import type { InternshipView } from "@/lib/internships/internships.ts";

/** A valid create body; `fields` override or add fields. */
export function internshipBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Backend Intern",
    link: "https://careers.example.com/jobs/1",
    hiringOrganization: "Example Labs",
    ...fields,
  };
}

/** Creates internships as `owner` through the API and returns them. */
export async function postInternships(
  t: TestApp,
  owner: TestUser,
  items: Record<string, unknown>[],
): Promise<InternshipView[]> {
  const res = await t.json("POST", "/api/internships", {
    body: items.map((item) => internshipBody(item)),
    headers: owner.headers,
  });
  assertEquals(res.status, 201);
  return (await res.json()).data;
}
