/**
 * Any `/api/...` path no route matches: 404 `{error: "Not found"}` (CONTRACT.md §9). The answer
 * is made from one error made at start, neither thrown nor mapped again: a probe of unknown paths
 * is the most common hostile traffic, and an error per request (its stack trace) was most of its cost.
 */
import { NotFoundError } from "@/lib/errors.ts";
import { fixedErrorResponse } from "@/lib/http/errors.ts";

export const handler: () => Response = fixedErrorResponse(new NotFoundError());
