/** Reading and validating JSON request bodies at the edge. */
import type { z } from "zod";
import { InvalidInputError, UnsupportedMediaTypeError, ValidationError } from "@/lib/errors.ts";
import { PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { mediaTypeOf } from "@/lib/http/media_type.ts";

/** `application/json` or a `+json` type, parameters aside. */
function isJsonType(contentType: string | null): boolean {
  const type = mediaTypeOf(contentType);
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * Reads the request body as JSON. An empty body reads as `{}`.
 * @throws UnsupportedMediaTypeError (415) for a body whose `Content-Type` is missing or not JSON
 *   (a `text/plain` body is what a cross-site form can send without a preflight).
 * @throws InvalidInputError "Invalid JSON body" when the body is not JSON.
 */
export async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === "") return {};
  if (!isJsonType(req.headers.get("content-type"))) {
    throw new UnsupportedMediaTypeError("Content-Type must be application/json");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInputError("Invalid JSON body");
  }
}

/**
 * Validates `value` against `schema`.
 * @param onError maps the zod error to the thrown error; default `ValidationError` (issue array body).
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  onError: (error: z.ZodError) => Error = (error) => new ValidationError(error.issues),
): z.infer<S> {
  const result = schema.safeParse(value, PARSE_WITH_INPUT);
  if (!result.success) throw onError(result.error);
  return result.data;
}

/** Reads and validates a JSON body in one step; see `readJson` and `validate`. */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  onError?: (error: z.ZodError) => Error,
): Promise<z.infer<S>> {
  return validate(schema, await readJson(req), onError);
}

/** Query parameters as a plain object (the last value of a repeated name wins). */
export function queryOf(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}
