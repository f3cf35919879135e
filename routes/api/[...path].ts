/** Any `/api/...` path no route matches: 404 `{error: "Not found"}` (CONTRACT.md §9). */
import { NotFoundError } from "../../lib/errors.ts";

export const handler = (): Response => {
  throw new NotFoundError();
};
