/**
 * Browser side of islands: reads the props envelope and the island module map that the
 * server wrote into the page, finds each `<!--island:Name:index-->` marker, imports the
 * island's module and hydrates it in place between its markers.
 *
 * What a person typed, ticked, chose or the browser autofilled in an island's server-rendered
 * form before its script arrived is kept (docs/decisions.md, Islands): hydration starts the
 * island from its props, so each control that differs from its server-rendered default is
 * noted before hydrating, then given its value back and replayed as `input` and `change`
 * events, one control per task, so the island's own handlers take it into their state.
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

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A control changed before hydration: the element, its id, and what it held. */
interface EarlyInput {
  control: Control;
  id: string;
  value: string;
  checked: boolean;
  selected: boolean[];
}

const NOT_REPLAYED = new Set(["hidden", "submit", "button", "reset", "image", "file"]);

function changed(control: Control): boolean {
  if (control instanceof HTMLSelectElement) {
    const options = [...control.options];
    // With no option marked `selected`, a single select starts on its first option.
    const byDefault = options.some((o) => o.defaultSelected) || control.multiple ? -1 : 0;
    return options.some((o, i) => o.selected !== (o.defaultSelected || i === byDefault));
  }
  if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")) {
    return control.checked !== control.defaultChecked;
  }
  return control.value !== control.defaultValue;
}

/** The controls between `start` and `end` whose state differs from what the server rendered. */
function earlyInputs(start: Comment, end: Comment): EarlyInput[] {
  const found: EarlyInput[] = [];
  for (let n = start.nextSibling; n && n !== end; n = n.nextSibling) {
    if (!(n instanceof Element)) continue;
    const controls = [n, ...n.querySelectorAll("input, textarea, select")].filter((e): e is Control =>
      e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement ||
      (e instanceof HTMLInputElement && !NOT_REPLAYED.has(e.type))
    );
    for (const control of controls.filter(changed)) {
      found.push({
        control,
        id: control.id,
        value: control.value,
        checked: control instanceof HTMLInputElement && control.checked,
        selected: control instanceof HTMLSelectElement ? [...control.options].map((o) => o.selected) : [],
      });
    }
  }
  return found;
}

/** Gives each control its early state back and lets the island's handlers see it. */
async function replay(inputs: EarlyInput[]): Promise<void> {
  for (const input of inputs) {
    const control = input.control.isConnected
      ? input.control
      : input.id
      ? document.getElementById(input.id) as Control | null
      : null;
    if (!control) continue;
    if (control instanceof HTMLSelectElement) input.selected.forEach((on, i) => control.options[i].selected = on);
    else if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")) {
      control.checked = input.checked;
    } else control.value = input.value;
    control.dispatchEvent(new Event("input", { bubbles: true }));
    control.dispatchEvent(new Event("change", { bubbles: true }));
    // Let the island re-render, so the next handler reads state that includes this one.
    await new Promise((resolve) => setTimeout(resolve));
  }
}

async function boot() {
  const script = document.getElementById("__islands");
  if (!script?.textContent) return;
  const data = JSON.parse(script.textContent) as IslandData;
  const props = deserialize(data.props, (value) => signal(value)) as Record<string, unknown>[];
  await Promise.all(
    findMarkers().map(async ({ name, index, start, end }) => {
      const module = await import(data.modules[name]);
      const inputs = earlyInputs(start, end);
      hydrate(h(module.default, props[index]), rootBetween(start, end));
      await replay(inputs);
    }),
  );
  document.documentElement.dataset.hydrated = "true";
}

boot();
