/**
 * Indexes a built stylesheet for the critical CSS of pages (`critical_css.ts`), at build time: postcss parses it, and
 * each style rule becomes an entry with its selectors and the classes each needs; a rule that only defines custom
 * properties (the theme's variables) an entry by property, as `@property` rules are; the rest, which names no class
 * (base styles, `@keyframes`, `@page`), is kept whole. Pointer and focus states and printing are indexed like the rest:
 * a page's inlined rules are all the styles it gets (docs/performance.md, Phone page load, "Critical CSS").
 */
import postcss, { type AtRule, type ChildNode, type Container, type Declaration, type Rule } from "postcss";
import { type CssEntry, type CssIndex, referencesOf } from "./critical_css.ts";

/** The unescaped class names of a selector (`.md\:flex` → `md:flex`); quoted strings are not looked into. */
export function selectorClasses(selector: string): string[] {
  const bare = selector.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, "");
  const names = new Set<string>();
  for (const [, escaped] of bare.matchAll(/\.((?:\\[0-9a-fA-F]{1,6} ?|\\[^0-9a-fA-F\n]|[\w-]|[^\p{ASCII}])+)/gu)) {
    names.add(
      escaped.replace(
        /\\([0-9a-fA-F]{1,6}) ?|\\(.)/g,
        (_, hex: string, char: string) => hex ? String.fromCodePoint(parseInt(hex, 16)) : char,
      ),
    );
  }
  return [...names];
}

/** Whether a rule holds only declarations (no nested rules or at-rules). */
function isFlat(rule: Rule): boolean {
  return (rule.nodes ?? []).every((node) => node.type === "decl" || node.type === "comment");
}

/**
 * The index of `css` (a built, minified stylesheet).
 * @throws CssSyntaxError when `css` does not parse.
 */
export function indexStylesheet(css: string): CssIndex {
  const root = postcss.parse(css);
  const layers: string[] = [];
  const entries: CssEntry[] = [];
  const visit = (container: Container<ChildNode>, at: string[]) => {
    for (const node of container.nodes ?? []) {
      if (node.type === "comment" || node.type === "decl") continue;
      if (node.type === "atrule") {
        const rule = node as AtRule;
        if (rule.name === "layer" && at.length === 0) {
          for (const name of rule.params.split(",").map((n) => n.trim())) {
            if (name && !layers.includes(name)) layers.push(name);
          }
        }
        if (rule.name === "property") {
          entries.push({ at, property: rule.params.trim(), css: rule.toString(), refers: [] });
          continue;
        }
        const prelude = `@${rule.name}${rule.params ? ` ${rule.params}` : ""}`;
        const holdsRules = (rule.nodes ?? []).some((child) => child.type === "rule" || child.type === "atrule");
        if (holdsRules && ["layer", "media", "supports", "container"].includes(rule.name)) {
          visit(rule, [...at, prelude]);
        } else if (rule.nodes && !(rule.name === "layer" && rule.nodes.length === 0)) {
          entries.push({ at, css: rule.toString(), refers: referencesOf(rule.toString()) });
        }
        continue;
      }
      const rule = node as Rule;
      const selectors = rule.selectors.map((text) => ({ text, classes: selectorClasses(text) }));
      if (!isFlat(rule)) {
        const css = rule.toString();
        const conditional = selectors.every((s) => s.classes.length > 0);
        entries.push({ at, ...conditional ? { selectors, whole: true } : {}, css, refers: referencesOf(css) });
        continue;
      }
      const declarations = (rule.nodes ?? []).filter((n) => n.type === "decl") as Declaration[];
      const body = declarations.map((d) => d.toString()).join(";");
      if (selectors.some((s) => s.classes.length > 0)) {
        entries.push({ at, selectors, css: body, refers: referencesOf(body) });
      } else if (declarations.length > 0 && declarations.every((d) => d.prop.startsWith("--"))) {
        const variables = declarations.map((d): [string, string, string[]] => [
          d.prop,
          d.toString(),
          referencesOf(d.value),
        ]);
        entries.push({
          at,
          variables: { selector: selectors.map((s) => s.text).join(","), declarations: variables },
          css: "",
          refers: [],
        });
      } else {
        entries.push({ at, css: `${selectors.map((s) => s.text).join(",")}{${body}}`, refers: referencesOf(body) });
      }
    }
  };
  visit(root, []);
  return { layers, entries };
}
