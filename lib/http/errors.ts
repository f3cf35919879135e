/**
 * The one place that maps the typed errors of `lib/errors.ts` to HTTP responses (docs/decisions.md,
 * Errors and limits): status, `{error}` body (the zod issue array for a
 * `ValidationError`, `{error, code, message}` for an `AuthError`), beside it `fields` (a sentence
 * per field in error) when the error knows its fields, and `Retry-After` for a rate limit.
 */
import {
  AUTH_ERROR_KINDS,
  AuthError,
  BusyError,
  ClientAbortError,
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  MethodNotAllowedError,
  NotConfiguredError,
  NotFoundError,
  PathTooLongError,
  RateLimitedError,
  RequestTimeoutError,
  TooLargeError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  UpstreamError,
  UpstreamRefusalError,
  ValidationError,
} from "@/lib/errors.ts";
import { type FieldProblem, fieldProblems, issueMessage } from "@/lib/field_messages.ts";

/**
 * Status of each kind of authentication error (docs/decisions.md, Auth): a duplicate e-mail is
 * 422; a failing social provider is 502, though the social callback answers every error with a
 * redirect.
 */
const AUTH_STATUS = { invalid: 400, exists: 422, unauthenticated: 401, forbidden: 403, upstream: 502 } as const;

/** Status of each error class; the first class the error is an instance of wins. */
const STATUS: [new (...args: never[]) => DomainError, number][] = [
  [ValidationError, 400],
  [InvalidInputError, 400],
  [ClientAbortError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [RequestTimeoutError, 408],
  [ConflictError, 409],
  [UpstreamRefusalError, 409],
  [TooLargeError, 413],
  [PathTooLongError, 414],
  [UnsupportedMediaTypeError, 415],
  [RateLimitedError, 429],
  [UpstreamError, 502],
  [NotConfiguredError, 503],
  [BusyError, 503],
];

function statusOf(error: DomainError): number {
  if (error instanceof AuthError) return AUTH_STATUS[AUTH_ERROR_KINDS[error.code]];
  return STATUS.find(([kind]) => error instanceof kind)?.[1] ?? 500;
}

function withFields<T extends object>(body: T, fields: FieldProblem[]): T | T & { fields: FieldProblem[] } {
  return fields.length > 0 ? { ...body, fields } : body;
}

function bodyOf(error: DomainError): unknown {
  if (error instanceof ValidationError) {
    const issues = error.issues.map(({ code, path, message }) => ({
      code,
      path: path.map(String),
      message: issueMessage(message),
    }));
    return withFields({ error: issues }, fieldProblems(error.issues));
  }
  if (error instanceof AuthError) {
    return withFields({ error: error.message, code: error.code, message: error.message }, error.fields);
  }
  if (error instanceof InvalidInputError) return withFields({ error: error.message }, error.fields);
  return { error: error.message };
}

/** The response headers of a domain error: its type, and `Retry-After` (whole seconds) for a rate limit or a busy write. */
function headersOf(error: DomainError): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error instanceof RateLimitedError || error instanceof BusyError) {
    headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
  }
  if (error instanceof MethodNotAllowedError) headers.allow = error.allow.join(", ");
  return headers;
}

/** The JSON response for a domain error; undefined for anything else (a server error). */
export function errorResponse(error: DomainError): Response;
export function errorResponse(error: unknown): Response | undefined;
export function errorResponse(error: unknown): Response | undefined {
  if (!(error instanceof DomainError)) return undefined;
  return new Response(JSON.stringify(bodyOf(error)), { status: statusOf(error), headers: headersOf(error) });
}
