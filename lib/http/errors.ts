/**
 * Typed errors thrown by domain modules and handlers, and the one place that maps them to
 * responses (specification "Errors", CONTRACT.md §9). No handler builds an error body by hand.
 */
import type { z } from "zod";

/** An error with an HTTP status and the `{error}` text the client sees. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
  /** The JSON body of the response. */
  body(): unknown {
    return { error: this.message };
  }
}

/** 400: invalid input with a plain message, e.g. "Invalid contactNumber". */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 400 whose body is the zod issue array `{error: [{code, path, message}]}`. */
export class ValidationError extends HttpError {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(400, "Validation failed");
  }
  override body(): unknown {
    return { error: this.issues.map(({ code, path, message }) => ({ code, path: path.map(String), message })) };
  }
}

/** 401: no valid session where one is needed. */
export class UnauthorizedError extends HttpError {
  constructor(message = "Unauthorized") {
    super(401, message);
  }
}

/** 403: signed in but not allowed. */
export class ForbiddenError extends HttpError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}

/** 404: the named resource does not exist (or is hidden from the caller). */
export class NotFoundError extends HttpError {
  constructor(message = "Not found") {
    super(404, message);
  }
}

/** 409: a uniqueness or state conflict. */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 429 with `Retry-After` in seconds. */
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, message = "Too many requests, try again later") {
    super(429, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** An `/api/auth/*` error: body `{error, code, message}` (CONTRACT.md §2). */
export class AuthError extends HttpError {
  constructor(status: number, readonly code: string, message: string) {
    super(status, message);
  }
  override body(): unknown {
    return { error: this.message, code: this.code, message: this.message };
  }
}

/** The JSON response for an `HttpError`. */
export function errorResponse(error: HttpError): Response {
  return Response.json(error.body(), { status: error.status, headers: error.headers });
}
