/**
 * `<Head>`: lets a page or layout add elements to the document's `<head>`, as Fresh's
 * `Head` does. A `<title>` given here replaces the one `_app` renders. Server-only: the
 * children are collected during the (synchronous) render and written into the head after it.
 */
import { type ComponentChildren, Fragment, h } from "preact";
import { renderToString } from "preact-render-to-string";

let collected: ComponentChildren[] | null = null;

/** Adds `children` (title, meta, link elements) to the document's head. Renders nothing in place. */
export function Head({ children }: { children?: ComponentChildren }): null {
  collected?.push(children);
  return null;
}

/** Runs a synchronous render and returns its output with the HTML of every `<Head>` in it. */
export function collectHead<T>(render: () => T): { output: T; head: string } {
  const children: ComponentChildren[] = [];
  collected = children;
  try {
    const output = render();
    collected = null;
    return { output, head: children.length ? renderToString(h(Fragment, null, children)) : "" };
  } finally {
    collected = null;
  }
}
