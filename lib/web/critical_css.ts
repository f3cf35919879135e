/**
 * The critical CSS of a page (docs/performance.md, Phone page load, "Critical CSS"): the rules of the built stylesheet
 * that the page's server-rendered HTML and its islands use, inlined in its `<head>`, so that the first screen paints
 * without waiting for a stylesheet and nothing is styled twice: the page links no stylesheet.
 *
 * The stylesheet is indexed once at build time (`indexStylesheet` in `build.ts`, with postcss): each style rule with
 * its selectors and, per selector, the classes it needs; the at-rules around it; and what needs no class (the layer
 * order, the theme's variables, the base styles, `@property` and `@keyframes`), which is always kept. The build adds
 * the stylesheet's classes each island's modules name (`CssIndex.islands`): what the island may draw in the browser. A
 * page keeps a rule when every class of one of its selectors is in one of the page's `class` attributes or among the
 * classes of an island on the page, in the stylesheet's order.
 */

/** One piece of the stylesheet, in order. */
export interface CssEntry {
  /** The at-rule preludes around it, outermost first, e.g. `["@layer utilities", "@media (min-width:40rem)"]`. */
  at: string[];
  /** A style rule's selectors, each with the classes it needs (unescaped). */
  selectors?: { text: string; classes: string[] }[];
  /**
   * A rule that only defines custom properties (the theme's variables, their fallbacks): its selector, and each
   * declaration by the property it defines, with the properties its value refers to; a page keeps the declarations
   * its kept CSS refers to (`var(--x)`).
   */
  variables?: { selector: string; declarations: [name: string, declaration: string, refers: string[]][] };
  /** `@property --x`: kept when the page's kept CSS refers to `--x`. */
  property?: string;
  /**
   * A style rule's body (declarations, without braces); or, with `whole` (a rule holding nested rules), or without
   * `selectors` (`@property`, base styles), the whole text of the piece.
   */
  css: string;
  /** `css` is the whole rule, kept as written when one of `selectors` applies. */
  whole?: boolean;
  /** The custom properties `css` refers to (`var(--x)`). */
  refers: string[];
}

/** The index of a built stylesheet (`_build/critical.json`). */
export interface CssIndex {
  /** The cascade layers in the order the stylesheet first names them. */
  layers: string[];
  entries: CssEntry[];
  /**
   * Per island (by name), the classes of the stylesheet that its modules and the modules they import, at once or on
   * demand, name: a page with the island keeps their rules.
   */
  islands?: Record<string, string[]>;
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", "#39": "'", "#x27": "'" };

/** The class names of the `class` attributes in `html` (server-rendered markup, attribute values entity-escaped). */
export function classesOf(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, value] of html.matchAll(/\sclass="([^"]*)"/g)) {
    const decoded = value.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, name: string) => ENTITIES[name]);
    for (const name of decoded.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The custom properties `css` refers to (`var(--x)`). */
export function referencesOf(css: string): string[] {
  return [...new Set(Array.from(css.matchAll(/var\((--[\w-]+)/g), ([, name]) => name))];
}

/**
 * The rules of `index` that a page using `classes` needs, as one stylesheet: the layer order, every piece that names
 * no class, the rules one of whose selectors needs only classes of the page, and the custom properties (and their
 * `@property` rules) that those refer to, directly or through other custom properties.
 */
export function criticalCss(index: CssIndex, classes: Set<string>): string {
  const { entries } = index;
  const used = new Set<string>();
  const texts = entries.map((entry) => {
    if (entry.variables || entry.property) return "";
    let text = entry.css;
    if (entry.selectors) {
      const kept = entry.selectors.filter((s) => s.classes.every((name) => classes.has(name)));
      if (kept.length === 0) return "";
      if (!entry.whole) text = `${kept.map((s) => s.text).join(",")}{${entry.css}}`;
    }
    for (const name of entry.refers) used.add(name);
    return text;
  });
  for (let known = -1; known !== used.size;) {
    known = used.size;
    for (const entry of entries) {
      for (const [name, , refers] of entry.variables?.declarations ?? []) {
        if (used.has(name)) { for (const other of refers) used.add(other); }
      }
    }
  }
  entries.forEach((entry, i) => {
    if (entry.property) texts[i] = used.has(entry.property) ? entry.css : "";
    if (entry.variables) {
      const kept = entry.variables.declarations.filter(([name]) => used.has(name));
      texts[i] = kept.length
        ? `${entry.variables.selector}{${kept.map(([, declaration]) => declaration).join(";")}}`
        : "";
    }
  });
  const out: string[] = index.layers.length ? [`@layer ${index.layers.join(",")};`] : [];
  let open: string[] = [];
  entries.forEach((entry, i) => {
    if (!texts[i]) return;
    let same = 0;
    while (same < open.length && same < entry.at.length && open[same] === entry.at[same]) same++;
    for (let depth = open.length; depth > same; depth--) out.push("}");
    for (const prelude of entry.at.slice(same)) out.push(`${prelude}{`);
    open = entry.at;
    out.push(texts[i]);
  });
  for (let depth = open.length; depth > 0; depth--) out.push("}");
  return out.join("");
}

/** Stylesheets already made, per index, by the page's sorted classes; at most `CACHED_PAGES` each. */
const made = new WeakMap<CssIndex, Map<string, string>>();
const CACHED_PAGES = 256;
/** A stylesheet made for pages of one shape, and its `<style>` element (`criticalStyleOf`) once asked for. */
interface Made {
  css: string;
  style?: string;
}

/**
 * Stylesheets already made, per index, by the page's distinct `class` attribute values in the order they first
 * appear (what a page of one shape repeats exactly); at most `CACHED_SHAPES` each.
 */
const byShape = new WeakMap<CssIndex, Map<string, Made>>();
const CACHED_SHAPES = 1024;

/** Whitespace before an attribute, as `classesOf`'s `\s` matches it. */
const SPACES = new Set([" ", "\n", "\t", "\r", "\f", "\v"]);

/**
 * The distinct values of the `class` attributes in `html`, in the order they first appear, as written (entities not
 * decoded): the scan of `classesOf` without its regular expression, splitting or decoding.
 */
function classAttributes(html: string): Set<string> {
  const values = new Set<string>();
  for (let at = html.indexOf('class="'); at !== -1; at = html.indexOf('class="', at)) {
    if (at === 0 || !SPACES.has(html[at - 1])) {
      at++;
      continue;
    }
    const end = html.indexOf('"', at + 7);
    if (end === -1) break;
    values.add(html.slice(at + 7, end));
    at = end + 1;
  }
  return values;
}

/** The kept stylesheet of the shape of `html` with `islands` (see `criticalCssOf`). */
function madeFor(index: CssIndex, html: string, islands: readonly string[]): Made {
  const shape = [...classAttributes(html), ...islands.map((name) => `\u0001${name}`)].join("\0");
  let shapes = byShape.get(index);
  if (!shapes) byShape.set(index, shapes = new Map());
  let found = shapes.get(shape);
  if (found) return found;
  const classes = classesOf(html);
  for (const name of islands) for (const found of index.islands?.[name] ?? []) classes.add(found);
  const key = [...classes].sort().join(" ");
  let cache = made.get(index);
  if (!cache) made.set(index, cache = new Map());
  let css = cache.get(key);
  if (css === undefined) {
    if (cache.size >= CACHED_PAGES) cache.delete(cache.keys().next().value!);
    cache.set(key, css = criticalCss(index, classes));
  }
  if (shapes.size >= CACHED_SHAPES) shapes.delete(shapes.keys().next().value!);
  shapes.set(shape, found = { css });
  return found;
}

/**
 * The critical CSS of the page `html` with the islands named `islands` (`classesOf`, the islands' classes,
 * `criticalCss`). Pages of one shape repeat the same `class` attributes and islands, so a stylesheet is kept by the
 * page's distinct attribute values (found without decoding or splitting) and islands, and, when those are new, by its
 * sorted classes: most renders only scan their attributes.
 */
export function criticalCssOf(index: CssIndex, html: string, islands: readonly string[] = []): string {
  return madeFor(index, html, islands).css;
}

/** `criticalCssOf` as the `<style>` element of the page's head (`</` escaped), kept with it. */
export function criticalStyleOf(index: CssIndex, html: string, islands: readonly string[] = []): string {
  const found = madeFor(index, html, islands);
  return found.style ??= `<style>${found.css.replaceAll("</", "<\\/")}</style>`;
}
