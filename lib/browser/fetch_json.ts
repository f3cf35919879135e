/**
 * The islands' JSON client: one call to a same-origin API path that never throws. Error
 * bodies are read as the platform writes them: `{error}` (docs/decisions.md, Errors and limits), `{error, code,
 * message}` on `/api/auth/*` (docs/decisions.md, Auth), or `{error: [{path, message}]}` for zod issues,
 * each with `fields` (a sentence per field in error) when the server knows them: forms show
 * those beside their fields and never the issue array's developer wording. A refusal is said in the island's language
 * with `failureMessage` (docs/decisions.md, Languages, "Field errors").
 * The browser adds the same-origin `Origin` header that the CSRF check wants.
 */
import type { FieldProblem } from "@/lib/field_messages.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { RefusalName } from "@/lib/refusals.ts";

/**
 * A failed call: `status` 0 means the network failed; `apiError` is the server's own `{error}` text (empty when it sent
 * none); `code` is set by `/api/auth/*`; `fields` lists the fields in error with their sentences (empty when the server
 * named none); `retryAfterSeconds`, the answer's `Retry-After` in seconds when it gave one (a rate limit, a busy write).
 * `failureMessage` says it in the page's language.
 */
export interface ApiFailure {
  ok: false;
  status: number;
  apiError: string;
  code?: string;
  fields: FieldProblem[];
  retryAfterSeconds?: number;
}

/** A successful call with its parsed body. */
export interface ApiSuccess<T> {
  ok: true;
  status: number;
  data: T;
}

/** What `fetchJson` resolves to. */
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/** A JSON field name in words for a sentence that names it: `maxStipend` → "Max stipend". */
function words(field: string): string {
  const spaced = field.split(".").pop()!.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function fieldsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter((p): p is FieldProblem => typeof p?.field === "string" && typeof p?.message === "string");
}

/** What an error body says: the server's `{error}` text and `code`, and the fields it named (with an `{error}`). */
function errorText(body: unknown): { apiError: string; code?: string; fields: FieldProblem[] } {
  const { error: value, code, fields } = (body ?? {}) as { error?: unknown; code?: unknown; fields?: unknown };
  if (typeof value === "string") {
    return { apiError: value, code: typeof code === "string" ? code : undefined, fields: fieldsOf(fields) };
  }
  return { apiError: "", fields: Array.isArray(value) ? fieldsOf(fields) : [] };
}

/**
 * A refusal in one paragraph in `t`'s language (docs/decisions.md, Languages, "Field errors"): the network's failure,
 * each field problem as "Label: sentence" (`labels` names the form's fields, else the JSON name in words), too many
 * attempts, a domain's refusal in the reader's words when `t` carries them (`Translate.refusal`: an island lists the
 * refusals it can meet with `refusalPrefixes`), else the server's own English `{error}` (introduced in the page's
 * language), or, without one, that the answers were not accepted (400) or the status.
 */
export function failureMessage(
  t: Translate,
  failure: ApiFailure,
  labels: Partial<Record<string, string>> = {},
): string {
  if (failure.status === 0) return t("common.errors.network");
  if (failure.fields.length > 0) {
    return failure.fields
      .map((problem) =>
        t("common.errors.fieldLine", {
          label: labels[problem.field] ?? words(problem.field),
          sentence: fieldText(t, problem),
        })
      )
      .join(" ");
  }
  if (failure.status === 429) return t("common.errors.tooMany");
  if (!failure.apiError) {
    return failure.status === 400
      ? t("common.errors.notAccepted")
      : t("common.errors.failed", { status: failure.status });
  }
  return t.refusal(failure.apiError) ?? t("common.errors.refused", { error: failure.apiError });
}

/**
 * The catalogue messages of the domain refusals `names` (`lib/refusals.ts`), as an island lists those it can meet among
 * the prefixes of its `text`: the page then sends their words and sentences with it, and `failureMessage` words them.
 */
export function refusalPrefixes(...names: RefusalName[]): `common.refusal.${RefusalName}`[] {
  return names.map((name) => `common.refusal.${name}` as const);
}

/**
 * Calls `path` with an optional JSON `body` and reads the JSON answer.
 * Never throws: network failures and error statuses come back as `ApiFailure`.
 */
export async function fetchJson<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<
  ApiResult<T>
> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers: options.body === undefined ? { accept: "application/json" } : {
        accept: "application/json",
        "content-type": "application/json",
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, apiError: "", fields: [] };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: body as T };
  // The platform writes `Retry-After` in whole seconds (`lib/http/errors.ts`); a date or anything else is left out.
  const retryAfter = res.headers.get("retry-after");
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return {
    ok: false,
    status: res.status,
    ...errorText(body),
    ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
  };
}
