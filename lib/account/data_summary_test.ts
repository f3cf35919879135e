import { assertEquals } from "@/tests/helpers/assert.ts";
import { EXPORT_SECTIONS } from "@/lib/account/export.ts";
import { COUNTED_SECTIONS, DETAILED_SECTIONS } from "@/lib/account/data_summary.ts";

Deno.test("every section of the export is shown on the Your data page, once", () => {
  const shown = [...DETAILED_SECTIONS, ...COUNTED_SECTIONS.map(({ name }) => name)];
  assertEquals(new Set(shown).size, shown.length, "no section twice");
  assertEquals(shown.toSorted(), EXPORT_SECTIONS.map(({ name }) => name).toSorted());
});
