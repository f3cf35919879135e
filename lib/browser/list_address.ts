/**
 * Browser-safe: the address of an admin list as its reader left it, for the plain forms and links of its rows
 * (docs/decisions.md, Islands, "A row's way back keeps the list"): a Delete link, its confirmation's form and Cancel,
 * and a row's Save form carry the list's search, tag and page, so the answer returns to that view.
 */

/**
 * `path` with the list's `view` (its search, tag, page: entries with no value, or `offset` 0, left out) and then
 * `extra` (what the answer adds: `delete`, `deleted`, `saved`…), as `path?…`; `path` alone when neither has any.
 */
export function listAddress(
  path: string,
  view: Record<string, string | number | null | undefined>,
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(view)) {
    if (value === null || value === undefined || value === "" || (name === "offset" && `${value}` === "0")) continue;
    params.set(name, `${value}`);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.size ? `${path}?${params}` : path;
}
