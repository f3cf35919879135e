/**
 * Browser side of islands: reads the props envelope and the island module map that the
 * server wrote into the page, finds each `<!--island:Name:index-->` marker, imports the
 * island's module and hydrates it in place between its markers.
 */
import { h, hydrate } from "preact";
import { signal } from "@preact/signals";
import { deserialize, type SerializedProps } from "@/lib/web/serializer.ts";

interface IslandData {
  modules: Record<string, string>;
  props: SerializedProps;
}

/** A stand-in parent that lets Preact hydrate a range of nodes between two markers. */
function rootBetween(start: Comment, end: Comment): ParentNode {
  const parent = end.parentNode!;
  const nodes = (): ChildNode[] => {
    const list: ChildNode[] = [];
    for (let n = start.nextSibling; n && n !== end; n = n.nextSibling) list.push(n);
    return list;
  };
  const insert = (node: Node, before?: Node | null) => parent.insertBefore(node, before ?? end);
  return {
    nodeType: 1,
    parentNode: parent,
    namespaceURI: (parent as Element).namespaceURI,
    get firstChild() {
      return nodes()[0] ?? null;
    },
    get childNodes() {
      return nodes();
    },
    insertBefore: insert,
    appendChild: (node: Node) => insert(node),
    removeChild: (node: Node) => parent.removeChild(node),
    contains: (node: Node) => nodes().includes(node as ChildNode),
  } as unknown as ParentNode;
}

function findMarkers(): { name: string; index: number; start: Comment; end: Comment }[] {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
  const open: { name: string; index: number; start: Comment }[] = [];
  for (let node = walker.nextNode() as Comment | null; node; node = walker.nextNode() as Comment | null) {
    const text = node.data;
    if (text.startsWith("island:")) {
      const [, name, index] = text.split(":");
      open.push({ name, index: Number(index), start: node });
    } else if (text === "/island") {
      const island = open.pop();
      if (island && open.length === 0) found.push({ ...island, end: node });
    }
  }
  return found;
}

async function boot() {
  const script = document.getElementById("__islands");
  if (!script?.textContent) return;
  const data = JSON.parse(script.textContent) as IslandData;
  const props = deserialize(data.props, (value) => signal(value)) as Record<string, unknown>[];
  await Promise.all(
    findMarkers().map(async ({ name, index, start, end }) => {
      const module = await import(data.modules[name]);
      hydrate(h(module.default, props[index]), rootBetween(start, end));
    }),
  );
  document.documentElement.dataset.hydrated = "true";
}

boot();
