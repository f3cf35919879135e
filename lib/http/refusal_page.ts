/**
 * What the page of a refused plain form says (docs/decisions.md, Errors and limits, "Plain forms refused"): a form
 * posted without JavaScript that a route refuses without showing its own page again gets a short page in the reader's
 * language with the refusal's status, instead of the API's `{error}`. This module decides what the page holds; the
 * component the composition root hands the app (`AppParts.refusalPage`) words it.
 */
import {
  AuthError,
  CrossSiteError,
  DomainError,
  InvalidInputError,
  TooLargeError,
  ValidationError,
} from "@/lib/errors.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import type { ProblemText } from "@/lib/i18n/field_text.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import { isAppOrigin } from "@/lib/http/csrf.ts";
import { refusalKey } from "@/lib/refusals.ts";
import { formBodyKind } from "@/lib/http/form_posts.ts";
import { returnPage } from "@/lib/auth/redirects.ts";

/**
 * What kind of refusal a page explains, by status (`crossSite`: the origin check's 403); each has a title and a
 * sentence (`common.refusalPage.<kind>.*`).
 */
export type RefusalKind =
  | "invalid"
  | "crossSite"
  | "timeout"
  | "conflict"
  | "tooLarge"
  | "unreadable"
  | "tooMany"
  | "unavailable"
  | "pathTooLong"
  | "methodNotAllowed";

/** The page of one refused plain form. */
export interface PlainFormRefusal {
  kind: RefusalKind;
  /** The catalogue message of the domain's own sentence, when pages word it (`refusalText`); else the kind's. */
  reason?: MessageKey;
  /** Each field problem the refusal named, to list under the sentence. */
  problems: ProblemText[];
  /** When a rate limit or a busy write lets the person send it again, in seconds. */
  retryAfterSeconds?: number;
  /** The size a too-large body or file may have, in bytes, when known. */
  limitBytes?: number;
  /**
   * Whether the refused form sends files (a multipart body): one too large is told to choose a smaller file, any other
   * to shorten what was written.
   */
  sendsFiles: boolean;
  /** The path (and query) of the form's page, to go back to: the same-origin `Referer`, else `/`. */
  back: string;
}

/** The kind of a refusal answered with `status`. */
function kindOf(status: number): RefusalKind {
  if (status === 408) return "timeout";
  if (status === 409) return "conflict";
  if (status === 413) return "tooLarge";
  if (status === 415) return "unreadable";
  if (status === 429) return "tooMany";
  if (status >= 500) return "unavailable";
  return "invalid";
}

/** The field problems `error` names (none for most refusals). */
function problemsOf(error: DomainError): ProblemText[] {
  if (error instanceof ValidationError) return fieldProblems(error.issues);
  if (error instanceof InvalidInputError || error instanceof AuthError) return error.fields;
  return [];
}

/**
 * The page a plain form's refusal gets: `error`, answered with `status`, to `req`, on the platform at `appUrl`.
 * `retryAfterSeconds` is the answer's `Retry-After`, if it has one.
 */
export function plainFormRefusal(
  { error, status, req, appUrl, retryAfterSeconds }: {
    error: DomainError;
    status: number;
    req: Request;
    appUrl: string;
    retryAfterSeconds?: number;
  },
): PlainFormRefusal {
  const reason = error instanceof ValidationError ? undefined : refusalKey(error.message);
  const limitBytes = error instanceof TooLargeError ? error.limitBytes : undefined;
  return {
    kind: error instanceof CrossSiteError ? "crossSite" : kindOf(status),
    ...(reason ? { reason } : {}),
    problems: problemsOf(error),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    sendsFiles: formBodyKind(req) === "multipart",
    back: formPage(req, appUrl),
  };
}

/**
 * The form's page a request came from: its same-origin `Referer`'s path and query, else `/`. The path is checked as
 * every redirect target is (`returnPage`), so a Referer whose path a browser reads as another host (`//evil.example`,
 * `/\evil.example`, `/%2e%2e//evil.example`) links home, not away.
 */
export function formPage(req: Request, appUrl: string): string {
  const referer = req.headers.get("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return isAppOrigin(url.origin, appUrl) ? returnPage(url.pathname + url.search, appUrl) ?? "/" : "/";
  } catch {
    return "/";
  }
}
