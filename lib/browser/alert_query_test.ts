import { assertEquals } from "@/tests/helpers/assert.ts";
import { alertQuery } from "./alert_query.ts";

Deno.test("alertQuery: internships keep the list's filters in the API's form, without empty ones", () => {
  assertEquals(
    alertQuery("internships", "?types=remote&types=hybrid&tags=react&location=&q=design&offset=20&minStipend=5000"),
    { types: "remote,hybrid", tags: "react", search: "design", minStipend: "5000" },
  );
  assertEquals(alertQuery("internships", ""), {});
});

Deno.test("alertQuery: opportunities keep type and search, q standing in for search", () => {
  assertEquals(alertQuery("opportunities", "type=hackathon&search=ai&offset=10"), { type: "hackathon", search: "ai" });
  assertEquals(alertQuery("opportunities", "?q=grants"), { search: "grants" });
  assertEquals(alertQuery("opportunities", "?type=&search=%20"), {});
});
