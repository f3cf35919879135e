/**
 * The server side of the pages' plain HTML forms (docs/decisions.md, Auth, "The auth forms work without JavaScript";
 * docs/decisions.md, Islands, "Forms work without JavaScript"):
 * a form posts to its own page, whose `POST` handler reads the fields, runs the same domain flow as the JSON API and
 * answers 303 See Other to the next page (POST/redirect/GET), or renders the page again with what went wrong beside the
 * fields.
 */
import { InvalidInputError } from "@/lib/errors.ts";

/** The content types of a browser's plain form post. */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * How much an `Accept` header wants `type` (e.g. `text/html`): the quality of the most specific range naming it, and
 * how specific that range is (2 the type itself, 1 `text/*`, 0 `*\/*`); quality 0 when no range names it.
 */
function acceptance(accept: string, type: string): { q: number; specificity: number } {
  const [major] = type.split("/");
  let found = { q: 0, specificity: -1 };
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const name = range.trim();
    const specificity = name === type ? 2 : name === `${major}/*` ? 1 : name === "*/*" ? 0 : -1;
    if (specificity <= found.specificity) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    found = { q: Number.isFinite(q) ? q : 0, specificity };
  }
  return found;
}

/**
 * Whether an `Accept` header prefers a page to JSON: `text/html` at a higher quality than `application/json`, or at the
 * same quality but named more specifically (a browser's navigation names `text/html`; `fetch` sends `*\/*`, which
 * prefers neither, and an absent header prefers neither).
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  const html = acceptance(accept, "text/html");
  const json = acceptance(accept, "application/json");
  return html.q > 0 && (html.q > json.q || (html.q === json.q && html.specificity > json.specificity));
}

/** Whether `req` posts a form body (urlencoded or multipart), as a browser's plain `<form>` does. */
export function postsForm(req: Request): boolean {
  return FORM_TYPES.test(req.headers.get("content-type") ?? "");
}

/**
 * Whether `req` is a plain form post from a page, as a browser sends it without JavaScript (docs/decisions.md, Errors
 * and limits, "Plain forms refused"): a form body to a path outside `/api/` from a client that prefers a page to JSON.
 * Such a request's refusal is answered with a page, not the API's `{error}`.
 */
export function isPlainFormPost(req: Request, url: URL): boolean {
  return !url.pathname.startsWith("/api/") && postsForm(req) && prefersHtml(req.headers.get("accept"));
}

/**
 * The text fields `names` of a urlencoded or multipart form body, each `""` when absent (a
 * file where text is expected counts as absent).
 * @throws InvalidInputError (400) when the body is not a form.
 */
export async function readFormFields<F extends string>(req: Request, names: readonly F[]): Promise<Record<F, string>> {
  return formFields(await readForm(req), names);
}

/**
 * A urlencoded or multipart form body, for a form with repeated fields (a group of checkboxes: `getAll`).
 * @throws InvalidInputError (400) when the body is not a form.
 */
export async function readForm(req: Request): Promise<FormData> {
  try {
    return await req.formData();
  } catch {
    throw new InvalidInputError("Invalid form body");
  }
}

/** The text fields `names` of `form`, each `""` when absent or a file. */
export function formFields<F extends string>(form: FormData, names: readonly F[]): Record<F, string> {
  const value = (name: F) => {
    const field = form.get(name);
    return typeof field === "string" ? field : "";
  };
  return Object.fromEntries(names.map((name) => [name, value(name)])) as Record<F, string>;
}

/** A 303 See Other to `location` (a path on this origin), with extra headers such as `Set-Cookie`. */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, ...headers } });
}
