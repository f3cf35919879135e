/**
 * Finds user-facing English written outside the catalogues (docs/decisions.md, Languages, "Catalogues"): the text of
 * JSX, the strings of attributes and props a person reads, and sentences in code, in the files that make pages,
 * islands, components, e-mails and notifications. Read with the TypeScript parser, so comments, imports, class lists,
 * identifiers and the English of thrown errors and logs (developer text; API errors stay English) are not findings.
 */
import ts from "typescript";
import { relative } from "node:path";

/** One finding: where, and the text. */
export interface Literal {
  file: string;
  line: number;
  text: string;
}

/** Attributes and props that never hold words a person reads. */
const TECHNICAL_ATTRIBUTES = new Set([
  "class",
  "className",
  "id",
  "name",
  "type",
  "href",
  "src",
  "srcSet",
  "rel",
  "method",
  "action",
  "for",
  "htmlFor",
  "autoComplete",
  "autocomplete",
  "inputMode",
  "role",
  "key",
  "lang",
  "hreflang",
  "target",
  "enctype",
  "encType",
  "accept",
  "pattern",
  "d",
  "viewBox",
  "fill",
  "stroke",
  "xmlns",
  "media",
  "sizes",
  "as",
  "crossOrigin",
  "loading",
  "decoding",
  "referrerpolicy",
  "referrerPolicy",
  "sandbox",
  "allow",
  "min",
  "max",
  "step",
  "kind",
  "tone",
  "variant",
  "size",
  "layout",
  "datetime",
  "dateTime",
  "content",
  "property",
  "charset",
  "http-equiv",
  "style",
  "download",
  "form",
  "formAction",
  "prefix",
  "field",
  "aria-hidden",
  "aria-current",
  "aria-live",
  "aria-describedby",
  "aria-labelledby",
  "aria-controls",
  "aria-expanded",
  "aria-busy",
  "aria-invalid",
  "aria-haspopup",
  "aria-sort",
  "tabIndex",
  "width",
  "height",
  "list",
  "sameSite",
]);

/**
 * Calls whose string arguments are developer text: errors, logs (`ctx.log?.warn`, an image clean-up's log line),
 * assertions, lookups and comparisons, a schema's `describe` (the API reference's).
 */
const DEVELOPER_CALLS =
  /^((\w+\??\.)*(background\.start|log\??\.\w+|includes|startsWith|endsWith|has|get|getAll)|[^]+\.describe|deleteUnusedImages|console\.\w+|log\.\w+|\w*[Ll]og(ger)?\.\w+|fail|assert\w*|querySelector\w*|getElementById|closest|matchMedia|addEventListener|removeEventListener|dispatchEvent|setAttribute|getAttribute|fetchJson|fetch|t|t\.\w+|useT|define\.\w+|describeRoute)$/;

/** A string that reads as words: a capitalised word, then a space or a sentence's punctuation or its end. */
const PROSE = /^[\s"'“(]*[A-Z][a-z’']+(\s+\S|[.:!?…,]|$)/;

/** Single-word Tailwind utilities (the rest have a dash, colon, slash or bracket). */
const UTILITY_WORDS = new Set([
  "flex",
  "grid",
  "block",
  "inline",
  "hidden",
  "contents",
  "underline",
  "truncate",
  "italic",
  "relative",
  "absolute",
  "fixed",
  "sticky",
  "static",
  "rounded",
  "border",
  "shadow",
  "uppercase",
  "lowercase",
  "capitalize",
  "grow",
  "shrink",
  "invisible",
  "visible",
  "antialiased",
  "group",
  "peer",
  "container",
  "transition",
  "outline",
  "ring",
  "table",
  "collapse",
  "isolate",
]);

/** Whether `text` is a class list: every token a utility. */
function isClassList(text: string): boolean {
  return text.split(/\s+/).every((token) => /[-:[\]/.]/.test(token) || UTILITY_WORDS.has(token));
}

/** Whether `text` reads as words a person reads (see `PROSE`), or three lowercase words in a row. */
function isProse(text: string): boolean {
  const trimmed = text.trim();
  if (!/[A-Za-z]{2,}/.test(trimmed) || isClassList(trimmed)) return false;
  return PROSE.test(trimmed) || /\b[a-z]{2,}\s[a-z]{2,}\s[a-z]{2,}\b/.test(trimmed);
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string {
  return call.expression.getText();
}

/** Names of the constants a file passes to `new …Error(…)`: their strings are API or developer text. */
function errorConstants(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && /Error$/.test(calleeName(node))) {
      for (const arg of node.arguments ?? []) if (ts.isIdentifier(arg)) names.add(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/**
 * Whether `node` is inside a thrown error, a developer call, a type, an import, a key position, or the value of a
 * constant in `errors` (see `errorConstants`).
 */
function developerText(node: ts.Node, errors: ReadonlySet<string>): boolean {
  for (let at: ts.Node | undefined = node.parent, child = node; at; child = at, at = at.parent) {
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) && errors.has(at.name.text)) return true;
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at) || ts.isTypeNode(at)) return true;
    if (ts.isNewExpression(at) && /Error$/.test(calleeName(at))) return true;
    if (ts.isThrowStatement(at)) return true;
    if (ts.isCallExpression(at) && child !== at.expression && DEVELOPER_CALLS.test(calleeName(at))) return true;
    if (ts.isPropertyAssignment(at) && at.name === child) return true;
    if (ts.isElementAccessExpression(at) && at.argumentExpression === child) return true;
    if (ts.isCaseClause(at) && at.expression === child) return true;
    if (ts.isBinaryExpression(at) && /^(===|!==|==|!=)$/.test(at.operatorToken.getText())) return true;
    if (ts.isJsxAttribute(at)) {
      return TECHNICAL_ATTRIBUTES.has(at.name.getText()) || at.name.getText().startsWith("data-");
    }
    if (ts.isPropertyAssignment(at) && TECHNICAL_ATTRIBUTES.has(at.name.getText())) return true;
    if (ts.isFunctionLike(at) || ts.isSourceFile(at)) return false;
  }
  return false;
}

/** The findings of one source file (`path` relative to `root` in the results). */
export function literalsOf(root: string, path: string, source: string, allowed: ReadonlySet<string>): Literal[] {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, kind);
  const errors = errorConstants(file);
  const found: Literal[] = [];
  const add = (node: ts.Node, text: string) => {
    const trimmed = text.replace(/\s+/g, " ").trim();
    if (allowed.has(trimmed)) return;
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ file: relative(root, path), line, text: trimmed });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (/[A-Za-z]{2,}/.test(node.text)) add(node, node.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (isProse(node.text) && !developerText(node, errors)) add(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      if (parts.some(isProse) && !developerText(node, errors)) add(node, parts.join("…"));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
