/**
 * The server side of the pages' plain HTML forms (docs/decisions.md, Auth, "The auth forms work without JavaScript";
 * docs/decisions.md, Islands, "Forms work without JavaScript"):
 * a form posts to its own page, whose `POST` handler reads the fields, runs the same domain flow as the JSON API and
 * answers 303 See Other to the next page (POST/redirect/GET), or renders the page again with what went wrong beside the
 * fields.
 */
import Negotiator from "negotiator";
import { z } from "zod";
import { DomainError, InvalidInputError } from "@/lib/errors.ts";
import { mediaTypeOf } from "@/lib/http/media_type.ts";

/** The media types of a browser's plain form post, by the kind of body each is. */
const FORM_TYPES: Readonly<Record<string, "urlencoded" | "multipart">> = {
  "application/x-www-form-urlencoded": "urlencoded",
  "multipart/form-data": "multipart",
};

/**
 * The kind of form body `req` sends, by its `Content-Type`'s media type (its parameters, such as the multipart
 * boundary, aside; any case): `urlencoded` or `multipart` (a form that sends files), else undefined. The one definition
 * of a form post's types, for the pages' form posts and their refusal pages (`lib/http/refusal_page.ts`).
 */
export function formBodyKind(req: Request): "urlencoded" | "multipart" | undefined {
  const type = mediaTypeOf(req.headers.get("content-type"));
  return Object.hasOwn(FORM_TYPES, type) ? FORM_TYPES[type] : undefined;
}

/**
 * Whether an `Accept` header prefers a page to JSON, by the `negotiator` package's content negotiation (quality, then
 * specificity, then order): a browser's navigation names `text/html`; `fetch` sends `*\/*`, which prefers neither and
 * so gets JSON, the first offered; an absent or empty header prefers neither.
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(["application/json", "text/html"]) === "text/html";
}

/**
 * Whether `req`, for `url`, posts a page's form: a form body (urlencoded or multipart, as a browser's `<form>` sends)
 * to a path outside `/api/`, whatever the client accepts. Such a form refused by the origin check, or for want of a
 * right or a thing, gets a page (docs/decisions.md, Errors and limits, "Plain forms refused").
 */
export function isPageFormPost(req: Request, url: URL): boolean {
  return !url.pathname.startsWith("/api/") && formBodyKind(req) !== undefined;
}

/**
 * Whether `req` is a plain form post from a page, as a browser sends it without JavaScript (docs/decisions.md, Errors
 * and limits, "Plain forms refused"): a page's form (`isPageFormPost`) from a client that prefers a page to JSON.
 * Such a request's refusal is answered with a page, not the API's `{error}`.
 */
export function isPlainFormPost(req: Request, url: URL): boolean {
  return isPageFormPost(req, url) && prefersHtml(req.headers.get("accept"));
}

/**
 * The text fields `names` of a urlencoded or multipart form body, each `""` when absent (a
 * file where text is expected counts as absent).
 * @throws InvalidInputError (400) when the body is not a form; the body's own errors as they are (`bodyLimits`: 408,
 *   401 when the session ended while it arrived).
 */
export async function readFormFields<F extends string>(req: Request, names: readonly F[]): Promise<Record<F, string>> {
  return formFields(await readForm(req), names);
}

/**
 * A urlencoded or multipart form body, for a form with repeated fields (a group of checkboxes: `getAll`).
 * @throws InvalidInputError (400) when the body is not a form; the body's own errors as they are (`bodyLimits`: 408,
 *   401 when the session ended while it arrived).
 */
export async function readForm(req: Request): Promise<FormData> {
  try {
    return await req.formData();
  } catch (error) {
    // The body's own refusals (a stall, the session ended meanwhile: `bodyLimits`) keep their status.
    if (error instanceof DomainError) throw error;
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

/** A switch's value as its page was drawn (`"true"`, `"false"`), or `""` from a form drawn without it. */
const drawnSwitch = z.enum(["true", "false", ""]);

/**
 * The fields of a plain row form's switches `names` (docs/decisions.md, Islands, "A row's plain form saves what its
 * reader changed"): `shape`, each switch as posted and its drawn value `was_{name}`, for the form's zod schema, and
 * `fields`, their names for `readFormFields`. `changedSwitches` reads what they parse to.
 */
export function switchFields<F extends string>(names: readonly F[]): {
  shape: Record<F, z.ZodString> & Record<`was_${F}`, typeof drawnSwitch>;
  fields: (F | `was_${F}`)[];
} {
  return {
    shape: Object.fromEntries(
      names.flatMap((name) => [[name, z.string().max(10)], [`was_${name}`, drawnSwitch]]),
    ) as Record<F, z.ZodString> & Record<`was_${F}`, typeof drawnSwitch>,
    fields: names.flatMap((name) => [name, `was_${name}` as const]),
  };
}

/**
 * The switches of a plain row form that its reader changed (docs/decisions.md, Islands, "A row's plain form saves what
 * its reader changed"): each switch `name` in `names` posts `"true"` when ticked (nothing when not), and the form
 * carries the value the page was drawn with as `was_{name}` (`"true"` or `"false"`). `patch` has `{name: ticked}` for
 * each switch whose tick differs from its drawn value, or that has none (a form drawn without these fields); `{}` when
 * nothing changed. `summary` names them for the audit log (`"isActive: true, showSaleBadge: false"`).
 */
export function changedSwitches<F extends string>(
  fields: Readonly<Record<F | `was_${F}`, string>>,
  names: readonly F[],
): { patch: Partial<Record<F, boolean>>; summary: string } {
  const patch: Partial<Record<F, boolean>> = {};
  for (const name of names) {
    const ticked = fields[name] === "true";
    if (fields[`was_${name}`] !== String(ticked)) patch[name] = ticked;
  }
  const summary = Object.entries(patch).map(([name, value]) => `${name}: ${value}`).join(", ");
  return { patch, summary };
}

/** A 303 See Other to `location` (a path on this origin), with extra headers such as `Set-Cookie`. */
export function seeOther(location: string, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("location", location);
  return new Response(null, { status: 303, headers: all });
}
