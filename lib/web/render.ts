/**
 * Page rendering: `_app` wraps the layouts, which wrap the page; the HTML is rendered on
 * the server with island markers, then the styles (when the build indexed the stylesheet, the
 * rules the page and its islands use inlined in the head, and no stylesheet linked; else the
 * stylesheet linked in the head) and, only when the page has islands, the props envelope and the boot module are
 * added to the document. A build with a service worker adds its registering module (a deferred
 * module script) to every page.
 */
import { type ComponentType, h } from "preact";
import { renderToString } from "preact-render-to-string";
import type { Assets } from "./assets.ts";
import { criticalStyleOf } from "./critical_css.ts";
import { collectHead } from "./head.ts";
import { collectIslands } from "./islands.ts";
import { serialize, stringifyForHtml } from "./serializer.ts";
import type { AppProps, PageProps } from "./types.ts";

/** The components that make up one page, outermost first. */
export interface PageTree {
  app?: ComponentType<AppProps>;
  layouts: ComponentType<AppProps>[];
  page: ComponentType<PageProps>;
}

/** The last `</body>` of a document. */
const LAST_BODY_END = /<\/body>(?![\s\S]*<\/body>)/;

function escapeAttr(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/**
 * Renders a full HTML document for `props`.
 * @throws whatever a component throws, and TypeError for island props that cannot be serialized.
 */
export function renderDocument(tree: PageTree, props: PageProps & Record<string, unknown>, assets: Assets): string {
  const wrappers = tree.app ? [tree.app, ...tree.layouts] : tree.layouts;
  const build = (level: number): ComponentType<Record<string, never>> => {
    if (level === wrappers.length) return () => h(tree.page, props);
    const Wrapper = wrappers[level];
    const Inner = build(level + 1);
    return () => h(Wrapper, { ...props, Component: Inner });
  };
  const Root = build(0);
  const { output: { output: body, islands }, head: pageHead } = collectHead(() =>
    collectIslands(() => renderToString(h(Root, {})))
  );

  const { manifest } = assets;
  const used = [...new Set(islands.map((island) => island.name))];
  // With the stylesheet indexed, the page's rules and its islands' are inlined and the stylesheet is not linked: it
  // would hold up the first paint in the head, and restyle the whole page when it arrived later.
  const head = assets.cssIndex
    ? [criticalStyleOf(assets.cssIndex, body, used)]
    : manifest.css.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`);
  if (pageHead) head.push(pageHead);
  let tail = "";
  if (islands.length > 0) {
    const modules = Object.fromEntries(used.map((name) => {
      const url = manifest.islands[name];
      if (!url) throw new Error(`Island "${name}" is not in the build: run \`deno task build\``);
      return [name, url];
    }));
    // Every module the page runs at once, chunks included: the browser fetches them together with the page instead of
    // finding each chunk only after the module that imports it has arrived, one round trip per level.
    const preloads = new Set(Object.values(modules));
    for (const url of [manifest.boot, ...Object.values(modules)]) {
      for (const chunk of manifest.chunks?.[url] ?? []) preloads.add(chunk);
    }
    for (const url of preloads) head.push(`<link rel="modulepreload" href="${escapeAttr(url)}">`);
    const data = stringifyForHtml({ modules, props: serialize(islands.map((island) => island.props)) });
    tail += `<script type="application/json" id="__islands">${data}</script>` +
      `<script type="module" src="${escapeAttr(manifest.boot)}"></script>`;
  }
  let html = body.startsWith("<html") ? body : `<html><head></head><body>${body}</body></html>`;
  if (pageHead.includes("<title")) {
    const end = html.indexOf("</head>");
    if (end > 0) html = html.slice(0, end).replace(/<title>[\s\S]*?<\/title>/, "") + html.slice(end);
  }
  if (manifest.serviceWorker) {
    tail += `<script type="module" src="${escapeAttr(manifest.serviceWorker.register)}"></script>`;
  }
  // The head goes before the first `</head>` (or into a new head after `<html …>`), the tail before the last
  // `</body>`: the rendered text's pieces joined once, instead of the whole document copied by each insertion.
  let headAt = html.indexOf("</head>");
  let headPart = head.join("");
  if (headAt === -1) {
    const open = /^<html[^>]*>/.exec(html);
    headAt = open ? open[0].length : 0;
    headPart = open ? `<head>${headPart}</head>` : "";
  }
  const bodyAt = tail ? html.lastIndexOf("</body>") : -1;
  if (bodyAt < headAt) {
    // No tail, no `</body>`, or one before the head: the insertions one after the other.
    const withHead = html.slice(0, headAt) + headPart + html.slice(headAt);
    return `<!DOCTYPE html>${tail ? withHead.replace(LAST_BODY_END, () => `${tail}</body>`) : withHead}`;
  }
  return `<!DOCTYPE html>${html.slice(0, headAt)}${headPart}${html.slice(headAt, bodyAt)}${tail}${html.slice(bodyAt)}`;
}
