/**
 * Typed errors that domain modules throw. They say what went wrong, never how it is answered:
 * `lib/http/errors.ts` maps each class to a status and body once (docs/api.md, Errors and limits,
 * docs/decisions.md, Auth; docs/decisions.md, Errors and limits). No domain module imports anything of HTTP.
 */
import type { z } from "zod";
import type { FieldProblem } from "./field_messages.ts";
import { PLATFORM_REFUSALS, REFUSALS } from "@/lib/refusals.ts";

/** The refusal of a write that needs a verified e-mail address (a report, an organization claim). */
export const VERIFY_FIRST = REFUSALS.verifyFirst;

/** Base class of every error the platform expects; anything else is a server error. */
export class DomainError extends Error {
  override name = "DomainError";
}

/**
 * Invalid input with a plain message, e.g. "Invalid contactNumber" or "Invalid coupon code";
 * `fields` says which fields are wrong, each with a sentence for a person (answered as `fields`).
 */
export class InvalidInputError extends DomainError {
  override name = "InvalidInputError";
  constructor(message: string, readonly fields: FieldProblem[] = []) {
    super(message);
  }
}

/** Invalid input described by zod issues (answered as the issue array `{error: [{code, path, message}]}`). */
export class ValidationError extends DomainError {
  override name = "ValidationError";
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super("Validation failed");
  }
}

/** The input is larger than the limit of what it is (e.g. an upload over 5 MB); `limitBytes` is that limit, if known. */
export class TooLargeError extends DomainError {
  override name = "TooLargeError";
  constructor(message: string, readonly limitBytes?: number) {
    super(message);
  }
}

/** A request body that stalled: no bytes arrived for longer than the server waits. */
export class RequestTimeoutError extends DomainError {
  override name = "RequestTimeoutError";
  constructor(message = "Request body timed out") {
    super(message);
  }
}

/** The client went away (closed its connection) before its request body arrived whole. */
export class ClientAbortError extends DomainError {
  override name = "ClientAbortError";
  constructor(message = "Request body was not received") {
    super(message);
  }
}

/** A body of a type the route does not read, e.g. `text/plain` where JSON is expected. */
export class UnsupportedMediaTypeError extends DomainError {
  override name = "UnsupportedMediaTypeError";
}

/** The caller is not signed in where a signed-in user is needed. */
export class UnauthenticatedError extends DomainError {
  override name = "UnauthenticatedError";
  constructor(message = "Unauthorized") {
    super(message);
  }
}

/** The caller is signed in but not allowed (role or ownership). */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
  constructor(message = "Forbidden") {
    super(message);
  }
}

/**
 * A write refused by the CSRF origin check: from another site, or naming no origin of ours (docs/decisions.md,
 * Security). Answered 403 `{error: "Invalid origin"}`; a page's form gets a page saying so.
 */
export class CrossSiteError extends ForbiddenError {
  override name = "CrossSiteError";
  constructor() {
    super("Invalid origin");
  }
}

/** The named resource does not exist, or is hidden from the caller. */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
  constructor(message: string = PLATFORM_REFUSALS.notFound) {
    super(message);
  }
}

/** A URL path longer than the platform reads (`PATH_LIMIT`, `lib/http/limits.ts`). */
export class PathTooLongError extends DomainError {
  override name = "PathTooLongError";
  constructor() {
    super("URL path is too long");
  }
}

/** A method the route does not answer; `allow` lists those it does. */
export class MethodNotAllowedError extends DomainError {
  override name = "MethodNotAllowedError";
  constructor(readonly allow: string[]) {
    super("Method not allowed");
  }
}

/** A uniqueness or state conflict. */
export class ConflictError extends DomainError {
  override name = "ConflictError";
}

/** Too many attempts; `retryAfterSeconds` says when to try again. */
export class RateLimitedError extends DomainError {
  override name = "RateLimitedError";
  constructor(readonly retryAfterSeconds: number, message: string = PLATFORM_REFUSALS.tooMany) {
    super(message);
  }
}

/**
 * A write kept losing races to other writers for longer than it waits (docs/decisions.md, Open and closed listings,
 * "Concurrent writers"): nothing was written, and the same request may simply be sent again; `retryAfterSeconds` says
 * when.
 */
export class BusyError extends DomainError {
  override name = "BusyError";
  constructor(message: string, readonly retryAfterSeconds = 1) {
    super(message);
  }
}

/** A capability that needs configuration the deployment lacks, e.g. "Payments are not configured". */
export class NotConfiguredError extends DomainError {
  override name = "NotConfiguredError";
}

/** A service the platform depends on (payment gateway, OAuth provider) failed or timed out. */
export class UpstreamError extends DomainError {
  override name = "UpstreamError";
}

/**
 * A service the platform depends on works but refused the request, saying why (e.g. the payment gateway does not
 * know a payment): retrying will not help, unlike an `UpstreamError`.
 */
export class UpstreamRefusalError extends DomainError {
  override name = "UpstreamRefusalError";
}

/**
 * Codes of authentication errors (docs/decisions.md, Auth), each with the kind of failure it is.
 * `lib/http/errors.ts` answers them as `{error, code, message}`.
 */
export const AUTH_ERROR_KINDS = {
  VALIDATION_ERROR: "invalid",
  INVALID_JSON_BODY: "invalid",
  PASSWORD_TOO_SHORT: "invalid",
  PASSWORD_TOO_LONG: "invalid",
  INVALID_CALLBACK_URL: "invalid",
  INVALID_NEW_USER_CALLBACK_URL: "invalid",
  INVALID_REDIRECT_TO: "invalid",
  INVALID_TOKEN: "invalid",
  PROVIDER_NOT_FOUND: "invalid",
  PROVIDER_NOT_CONFIGURED: "invalid",
  INVALID_STATE: "invalid",
  EMAIL_NOT_FOUND: "invalid",
  ACCESS_DENIED: "forbidden",
  ACCOUNT_NOT_LINKED: "forbidden",
  OAUTH_FAILED: "upstream",
  PROVIDER_UNAVAILABLE: "upstream",
  USER_ALREADY_EXISTS: "exists",
  INVALID_EMAIL_OR_PASSWORD: "unauthenticated",
  UNAUTHORIZED: "unauthenticated",
  EMAIL_NOT_VERIFIED: "forbidden",
  ACCOUNT_SUSPENDED: "forbidden",
} as const;

/** A code of `AUTH_ERROR_KINDS`. */
export type AuthErrorCode = keyof typeof AUTH_ERROR_KINDS;

/**
 * An authentication error with its stable upper-case code (docs/decisions.md, Auth); `fields`
 * as in `InvalidInputError`.
 */
export class AuthError extends DomainError {
  override name = "AuthError";
  constructor(readonly code: AuthErrorCode, message: string, readonly fields: FieldProblem[] = []) {
    super(message);
  }
}
