/** The test modules of `tests/api/auth/` as one module (`tests/helpers/test_groups.ts`). */
import { importTests } from "@/tests/helpers/test_groups.ts";

await importTests(new URL("../api/auth/", import.meta.url));
