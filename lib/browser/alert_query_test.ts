import { assertEquals } from "@/tests/helpers/assert.ts";
import { alertQuery, alertQueryOf } from "./alert_query.ts";

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

Deno.test("alertQueryOf: an alert form's filters, trimmed, by the list's names; opportunities' types as `type`", () => {
  const filters = {
    types: ["remote", "hybrid"],
    tags: " react ",
    location: "",
    search: " data ",
    minStipend: "5000",
    maxStipend: " ",
  };
  assertEquals(alertQueryOf("internships", filters), {
    types: "remote,hybrid",
    tags: "react",
    search: "data",
    minStipend: "5000",
  });
  assertEquals(alertQueryOf("opportunities", { ...filters, types: ["hackathon", "grant"] }), {
    type: "hackathon,grant",
    search: "data",
  });
});
