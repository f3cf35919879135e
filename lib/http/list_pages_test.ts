import { assertEquals } from "@/tests/helpers/assert.ts";
import { adminListQuery } from "./list_pages.ts";
import { AdminReportQuerySchema } from "@/lib/reports/schema.ts";
import { ModerationQuerySchema } from "@/lib/moderation/admin.ts";

const query = (text: string) => new URLSearchParams(text);

Deno.test("an admin list page reads status, kind and offset with its API's schema, at its own page size", () => {
  assertEquals(adminListQuery(AdminReportQuerySchema, query("status=resolved&kind=post&offset=20&limit=90"), 20), {
    status: "resolved",
    kind: "post",
    limit: 20,
    offset: 20,
  });
  assertEquals(adminListQuery(ModerationQuerySchema, query("status=held&kind=internships"), 20), {
    status: "held",
    kind: "internships",
    limit: 20,
    offset: 0,
  });
  // A link to all statuses or kinds names none, or an empty one.
  assertEquals(adminListQuery(AdminReportQuerySchema, query("status=&kind=&offset=40"), 20), {
    status: "open",
    limit: 20,
    offset: 40,
  });
  assertEquals(adminListQuery(ModerationQuerySchema, query("kind="), 20), { limit: 20, offset: 0 });
});

Deno.test("an admin list page answers a query it cannot read with the first page of the whole list", () => {
  for (
    const bad of ["status=closed", "kind=toolkit&offset=20", "offset=-1", "offset=2.5", "offset=x&status=resolved"]
  ) {
    assertEquals(adminListQuery(AdminReportQuerySchema, query(bad), 20), { status: "open", limit: 20, offset: 0 }, bad);
    assertEquals(adminListQuery(ModerationQuerySchema, query(bad), 20), { limit: 20, offset: 0 }, bad);
  }
});
