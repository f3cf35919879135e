/** The test modules of `tests/api/` as one module (`tests/helpers/test_groups.ts`). */
import { importTests } from "@/tests/helpers/test_groups.ts";

await importTests(new URL("../api/", import.meta.url));
