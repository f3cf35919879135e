/**
 * The islands' JSON client: one call to a same-origin API path that never throws. Error
 * bodies are read as the platform writes them: `{error}` (docs/decisions.md, Errors and limits), `{error, code,
 * message}` on `/api/auth/*` (docs/decisions.md, Auth), or `{error: [{path, message}]}` for zod issues,
 * each with `fields` (a sentence per field in error) when the server knows them: forms show
 * those beside their fields and never the issue array's developer wording.
 * The browser adds the same-origin `Origin` header that the CSRF check wants.
 */
import type { FieldProblem } from "@/lib/field_messages.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";

/**
 * A failed call: `status` 0 means the network failed; `error` is the refusal in English words, `apiError` the
 * server's own `{error}` text (empty when it sent none); `code` is set by `/api/auth/*`; `fields` lists the fields in
 * error with their sentences (empty when the server named none). `failureMessage` says it in the page's language.
 */
export interface ApiFailure {
  ok: false;
  status: number;
  error: string;
  apiError: string;
  code?: string;
  fields: FieldProblem[];
}

/** A successful call with its parsed body. */
export interface ApiSuccess<T> {
  ok: true;
  status: number;
  data: T;
}

/** What `fetchJson` resolves to. */
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/** The message shown when the request never got an answer. */
export const NETWORK_ERROR = "We could not reach the server. Check your connection and try again.";

/** A JSON field name in words for a sentence that names it: `maxStipend` → "Max stipend". */
function words(field: string): string {
  const spaced = field.split(".").pop()!.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * A refusal in one paragraph: each field problem as "Label: sentence" (`labels` names the
 * form's fields, else the JSON name in words), or the answer's `error` when it named no field.
 */
export function failureText(failure: ApiFailure, labels: Partial<Record<string, string>> = {}): string {
  if (failure.fields.length === 0) return failure.error;
  return failure.fields.map(({ field, message }) => `${labels[field] ?? words(field)}: ${message}`).join(" ");
}

function fieldsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter((p): p is FieldProblem => typeof p?.field === "string" && typeof p?.message === "string");
}

function errorText(
  body: unknown,
  status: number,
): { error: string; apiError: string; code?: string; fields: FieldProblem[] } {
  const { error: value, code, fields } = (body ?? {}) as { error?: unknown; code?: unknown; fields?: unknown };
  const problems = fieldsOf(fields);
  const failure = { ok: false as const, status, error: "", apiError: "", fields: problems };
  if (typeof value === "string") {
    return {
      error: failureText({ ...failure, error: value }),
      apiError: value,
      code: typeof code === "string" ? code : undefined,
      fields: problems,
    };
  }
  if (Array.isArray(value)) {
    return {
      error: failureText({ ...failure, error: "The server did not accept these answers." }),
      apiError: "",
      fields: problems,
    };
  }
  const error = status === 429 ? "Too many attempts. Wait a moment and try again." : `Request failed (${status})`;
  return { error, apiError: "", fields: [] };
}

/**
 * A refusal in one paragraph in `t`'s language (docs/decisions.md, Languages, "Field errors"): the network's failure,
 * each field problem as "Label: sentence" (`labels` names the form's fields, else the JSON name in words), too many
 * attempts, or the server's own English `{error}` (an API's words stay English, introduced in the page's language).
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
  if (!failure.apiError) return t("common.errors.failed", { status: failure.status });
  return t("common.errors.refused", { error: failure.apiError });
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
    return { ok: false, status: 0, error: NETWORK_ERROR, apiError: "", fields: [] };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: body as T };
  return { ok: false, status: res.status, ...errorText(body, res.status) };
}
