/**
 * The request bodies of `/api/auth/*` (docs/decisions.md, Auth): JSON read and validated with zod, every failure an
 * `AuthError` with body `{error, code, message}`, where the other routes answer the shared 400 of `readBody`.
 */
import type { z } from "zod";
import { AuthError, InvalidInputError } from "@/lib/errors.ts";
import { fieldProblems, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { readJson } from "./json.ts";

/**
 * Reads the JSON body of `req` and validates it with `schema`.
 * @throws AuthError 400 `INVALID_JSON_BODY` for malformed JSON; 400 `VALIDATION_ERROR`
 *   "Invalid <field>" naming the first bad field ("Invalid body" when it is not an object), with
 *   a sentence for each bad field as `fields`.
 */
export async function readAuthBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let value: unknown;
  try {
    value = await readJson(req);
  } catch (error) {
    if (error instanceof InvalidInputError) throw new AuthError("INVALID_JSON_BODY", error.message);
    throw error;
  }
  const result = schema.safeParse(value, PARSE_WITH_INPUT);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path[0];
  throw new AuthError(
    "VALIDATION_ERROR",
    field === undefined ? "Invalid body" : `Invalid ${String(field)}`,
    fieldProblems(result.error.issues),
  );
}
