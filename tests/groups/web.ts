/** The test modules of `TEST_GROUPS.web` as one module (`tests/helpers/test_groups.ts`). */
import { importGroup } from "@/tests/helpers/test_groups.ts";

await importGroup(import.meta.url);
