/** XML text: escaping of character data and attribute values, and the removal of characters XML 1.0 forbids. */

/** Characters XML 1.0 does not allow in a document at all (C0 controls but tab, line feed, carriage return). */
// deno-lint-ignore no-control-regex -- these control characters are exactly what the pattern removes
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** `text` as XML character data or an attribute value: `&`, `<`, `>`, `"`, `'` escaped, forbidden characters dropped. */
export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}
