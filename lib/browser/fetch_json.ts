/**
 * The islands' JSON client: one call to a same-origin API path that never throws. Error
 * bodies are read as the platform writes them: `{error}` (docs/decisions.md, Errors and limits), `{error, code,
 * message}` on `/api/auth/*` (docs/decisions.md, Auth), or `{error: [{path, message}]}` for zod issues.
 * The browser adds the same-origin `Origin` header that the CSRF check wants.
 */

/** A failed call: `status` 0 means the network failed; `code` is set by `/api/auth/*`. */
export interface ApiFailure {
  ok: false;
  status: number;
  error: string;
  code?: string;
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

function errorText(body: unknown, status: number): { error: string; code?: string } {
  const value = (body as { error?: unknown; code?: unknown } | null)?.error;
  const code = (body as { code?: unknown } | null)?.code;
  if (typeof value === "string") return { error: value, code: typeof code === "string" ? code : undefined };
  if (Array.isArray(value)) {
    const messages = value.map((issue) => {
      const { path, message } = issue as { path?: unknown[]; message?: string };
      return path && path.length > 0 ? `${path.join(".")}: ${message}` : String(message);
    });
    return { error: messages.join("; ") };
  }
  return { error: status === 429 ? "Too many attempts. Wait a moment and try again." : `Request failed (${status})` };
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
    return { ok: false, status: 0, error: NETWORK_ERROR };
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

/** The field a profile or onboarding error names: `"Invalid contactNumber"` → `"contactNumber"`, else null. */
export function invalidField(error: string): string | null {
  return error.match(/^Invalid (\w+)$/)?.[1] ?? null;
}
