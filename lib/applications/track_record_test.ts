import { assertEquals } from "@/tests/helpers/assert.ts";
import { applicationCounts, countChanges } from "./track_record.ts";

const sent = {
  organizationId: "org-1",
  createdAt: "2026-11-01T10:00:00.000Z",
  firstResponseAt: null,
  stipendReport: null,
};

Deno.test("countChanges: nothing when a move changes no counter, the old counts undone and the new added otherwise", () => {
  assertEquals(countChanges(sent, { ...sent }), []);
  assertEquals(countChanges(null, null), []);
  const answered = { ...sent, firstResponseAt: "2026-11-03T10:00:00.000Z" };
  assertEquals(countChanges(sent, answered), [
    ...applicationCounts(sent).map(([key, amount]) => [key, -amount]),
    ...applicationCounts(answered),
  ]);
  assertEquals(countChanges(null, sent), applicationCounts(sent));
  assertEquals(countChanges(sent, { ...sent, organizationId: "org-2" }).length, 4);
});
