/**
 * Server side of islands: while a page renders, an island component that is not inside
 * another island is wrapped in comment markers `<!--island:Name:index-->...<!--/island-->`
 * and its props are recorded for the browser. It hooks Preact's render options the way
 * Fresh does; rendering is synchronous, so one render's records never mix with another's.
 * `children` are props like any other: text passes, JSX children are refused by the
 * serializer (the browser could not rebuild them), so render them inside the island.
 * An island renders on the server what it renders in the browser: without the page's translator
 * (`TextContext`), which the browser does not have; an island that has words provides its own.
 */
import { type ComponentType, Fragment, h, options, type VNode } from "preact";
import { TextContext } from "@/lib/i18n/context.ts";

interface PreactHooks {
  vnode?: (vnode: VNode) => void;
  __b?: (vnode: VNode) => void;
  diffed?: (vnode: VNode) => void;
}

/** One island instance rendered on a page. */
export interface RenderedIsland {
  name: string;
  props: unknown;
}

const islandNames = new Map<ComponentType<never>, string>();
let collecting: RenderedIsland[] | null = null;
let islandDepth = 0;
let creatingInner = false;

/** A Fragment that preact-render-to-string renders as `<!--text-->`. */
function comment(text: string) {
  return h(Fragment, { UNSTABLE_comment: text } as Record<string, unknown>);
}

function IslandMarker({ island, props }: { island: ComponentType<never>; props: Record<string, unknown> }) {
  const name = islandNames.get(island)!;
  const index = collecting!.length;
  collecting!.push({ name, props });
  creatingInner = true;
  const inner = h(TextContext.Provider, { value: null }, h(island as ComponentType<Record<string, unknown>>, props));
  creatingInner = false;
  return h(
    Fragment,
    null,
    comment(`island:${name}:${index}`),
    inner,
    comment("/island"),
  );
}

const hooks = options as unknown as PreactHooks;
const previousVnode = hooks.vnode;
hooks.vnode = (vnode) => {
  const type = vnode.type as ComponentType<never>;
  if (collecting && !creatingInner && islandDepth === 0 && islandNames.has(type)) {
    (vnode as { props: unknown }).props = { island: type, props: vnode.props };
    vnode.type = IslandMarker as unknown as string;
  }
  previousVnode?.(vnode);
};
const previousDiff = hooks.__b;
hooks.__b = (vnode) => {
  if (islandNames.has(vnode.type as ComponentType<never>)) islandDepth++;
  previousDiff?.(vnode);
};
const previousDiffed = hooks.diffed;
hooks.diffed = (vnode) => {
  if (islandNames.has(vnode.type as ComponentType<never>)) islandDepth--;
  previousDiffed?.(vnode);
};

/** The island name of a source file: its base name without extension, e.g. `Counter`. */
export function islandName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
}

/** Registers an island component under its name (the file name in `islands/`). */
export function registerIsland(name: string, component: ComponentType<never>): void {
  islandNames.set(component, name);
}

/**
 * Runs a synchronous render and returns its output with the islands it rendered.
 * Nested calls are not supported (render-to-string is synchronous, so none happen).
 */
export function collectIslands<T>(render: () => T): { output: T; islands: RenderedIsland[] } {
  const islands: RenderedIsland[] = [];
  collecting = islands;
  islandDepth = 0;
  try {
    return { output: render(), islands };
  } finally {
    collecting = null;
    creatingInner = false;
  }
}
