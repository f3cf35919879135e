/**
 * Request bodies of `/api/auth/*` (docs/decisions.md, Auth): JSON read and validated with zod, every
 * failure an `AuthError` with body `{error, code, message}`, and the password length rule.
 */
import { z } from "zod";
import { AuthError, InvalidInputError } from "@/lib/errors.ts";
import { readJson } from "@/lib/http/json.ts";
import { fieldProblems, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./passwords.ts";

/** Longest accepted e-mail address, in characters (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

/** An e-mail address: trimmed, at most `EMAIL_MAX` characters, well-formed. */
export const EmailField = z.string().trim().max(EMAIL_MAX).pipe(z.email());

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

/**
 * Enforces the password length rule, counted in characters (code points).
 * @throws AuthError 400 `PASSWORD_TOO_SHORT` under `PASSWORD_MIN`, `PASSWORD_TOO_LONG` over `PASSWORD_MAX`.
 */
export function checkPasswordLength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new AuthError("PASSWORD_TOO_SHORT", "Password too short");
  if (length > PASSWORD_MAX) throw new AuthError("PASSWORD_TOO_LONG", "Password too long");
}
