/** The test modules of `tests/api/trust/` as one module (`tests/helpers/test_groups.ts`). */
import { importTests } from "@/tests/helpers/test_groups.ts";

await importTests(new URL("../api/trust/", import.meta.url));
