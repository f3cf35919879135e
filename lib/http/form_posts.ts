/**
 * The server side of the pages' plain HTML forms (docs/decisions.md, Auth, "The auth forms work without JavaScript";
 * docs/decisions.md, Islands, "Forms work without JavaScript"):
 * a form posts to its own page, whose `POST` handler reads the fields, runs the same domain flow as the JSON API and
 * answers 303 See Other to the next page (POST/redirect/GET), or renders the page again with what went wrong beside the
 * fields.
 */
import { InvalidInputError } from "@/lib/errors.ts";

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
