/**
 * Any `/api/...` path no route matches: 404 `{error: "Not found"}` (CONTRACT.md §9). The answer
 * is built from one error made at start, not thrown: a probe of unknown paths is the most common
 * hostile traffic, and making an error per request (its stack trace) was most of its cost.
 */
import { NotFoundError } from "../../lib/errors.ts";
import { errorResponse } from "../../lib/http/errors.ts";

const NOT_FOUND = new NotFoundError();

export const handler = (): Response => errorResponse(NOT_FOUND);
