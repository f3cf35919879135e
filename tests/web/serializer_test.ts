/** Island props serializer: round trips, signal identity, `$` escaping, refusals, HTML safety. */
import { h } from "preact";
import { computed, type Signal, signal } from "@preact/signals";
import { deserialize, serialize, stringifyForHtml } from "@/lib/web/serializer.ts";
import { assert, assertEquals, assertThrows } from "@/tests/helpers/assert.ts";

/** Serializes, writes as page JSON, parses it back as the browser does, and deserializes. */
function roundTrip(value: unknown): unknown {
  const text = stringifyForHtml(serialize(value));
  return deserialize(JSON.parse(text), (v) => signal(v));
}

Deno.test("plain JSON values round trip unchanged", () => {
  const value = { s: "text", n: 42.5, t: true, f: false, nil: null, list: [1, "two", [3]], nested: { a: { b: [] } } };
  assertEquals(roundTrip(value), value);
});

Deno.test("values JSON loses round trip: undefined, non-finite numbers, -0, bigint", () => {
  const out = roundTrip({
    u: undefined,
    nan: NaN,
    inf: Infinity,
    ninf: -Infinity,
    negZero: -0,
    big: 12345678901234567890n,
  }) as Record<string, unknown>;
  assert(Object.hasOwn(out, "u"));
  assertEquals(out.u, undefined);
  assert(Number.isNaN(out.nan));
  assertEquals(out.inf, Infinity);
  assertEquals(out.ninf, -Infinity);
  assert(Object.is(out.negZero, -0));
  assertEquals(out.big, 12345678901234567890n);
});

Deno.test("Date, URL, Map and Set round trip as their own types", () => {
  const date = new Date("2025-03-04T05:06:07.089Z");
  const url = new URL("https://example.com/a?b=c#d");
  const map = new Map<unknown, unknown>([["k", 1], [2, new Date(0)], [{ obj: true }, [1, 2]]]);
  const set = new Set<unknown>(["a", 1, new URL("https://x.example/")]);
  const out = roundTrip({ date, url, map, set }) as {
    date: Date;
    url: URL;
    map: Map<unknown, unknown>;
    set: Set<unknown>;
  };
  assert(out.date instanceof Date);
  assertEquals(out.date.toISOString(), date.toISOString());
  assert(out.url instanceof URL);
  assertEquals(out.url.href, url.href);
  assert(out.map instanceof Map);
  assertEquals(out.map, map);
  assert(out.set instanceof Set);
  assertEquals(out.set, set);
});

Deno.test("deeply nested supported types round trip", () => {
  const value = [{
    events: new Map([["launch", { at: new Date("2024-01-01T00:00:00Z"), tags: new Set(["x", "y"]) }]]),
    links: [new URL("https://a.example/"), { inner: new Map([[1, new Set([undefined, 1n])]]) }],
  }];
  assertEquals(roundTrip(value), value);
});

Deno.test("one signal passed to two islands is one signal after deserialize", () => {
  const shared = signal(3);
  const other = signal("x");
  const out = roundTrip([{ count: shared, label: other }, { count: shared, nested: { again: shared } }]) as {
    count: Signal<number>;
    label?: Signal<string>;
    nested?: { again: Signal<number> };
  }[];
  assert(out[0].count === out[1].count, "both islands hold the same signal");
  assert(out[1].nested!.again === out[0].count);
  assert(out[0].label !== (out[0].count as unknown));
  assertEquals(out[0].count.value, 3);
  out[0].count.value = 4;
  assertEquals(out[1].count.value, 4);
  assertEquals(out[0].label!.value, "x");
});

Deno.test("a signal's value is serialized once, with its supported types", () => {
  const shared = signal({ when: new Date(5), ids: new Set([1]) });
  const envelope = serialize([{ a: shared }, { b: shared }]);
  assertEquals(envelope.signals.length, 1);
  const out = deserialize(JSON.parse(JSON.stringify(envelope)), (v) => signal(v)) as { a: Signal }[];
  assertEquals(out[0].a.value, { when: new Date(5), ids: new Set([1]) });
});

Deno.test("a computed signal arrives as a signal holding its current value", () => {
  const base = signal(2);
  const doubled = computed(() => base.value * 2);
  const out = roundTrip({ doubled }) as { doubled: Signal<number> };
  assertEquals(out.doubled.value, 4);
});

Deno.test("an object with its own `$` key is escaped and round trips", () => {
  const value = { $: "d", v: "2020-01-01", inner: { $: "sig", v: 0 }, list: [{ $: "u" }], nonString: { $: 1 } };
  const envelope = serialize(value);
  assertEquals(envelope.signals, []);
  assertEquals(
    deserialize(JSON.parse(JSON.stringify(envelope)), () => {
      throw new Error("no signal expected");
    }),
    value,
  );
});

Deno.test("a `__proto__` data key stays data and does not change the prototype", () => {
  const value = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}');
  const out = roundTrip(value) as Record<string, unknown>;
  assertEquals(Object.getPrototypeOf(out), Object.prototype);
  assertEquals(Object.keys(out).sort(), ["__proto__", "ok"]);
  assertEquals((out as { polluted?: boolean }).polluted, undefined);
});

Deno.test("a function is refused with an error naming its path", () => {
  assertThrows(
    () => serialize([{ a: 1 }, { handlers: { onClick: () => {} } }]),
    { name: "TypeError", message: /function at props\[1\]\.handlers\.onClick/ },
  );
});

Deno.test("a symbol is refused with an error naming its path", () => {
  assertThrows(() => serialize([{ list: [1, Symbol("s")] }]), {
    name: "TypeError",
    message: /symbol at props\[0\]\.list\[1\]/,
  });
});

Deno.test("a JSX element is refused with an error naming its path", () => {
  assertThrows(
    () => serialize([{ icon: h("svg", null) }]),
    { name: "TypeError", message: /JSX element at props\[0\]\.icon/ },
  );
});

Deno.test("a cycle is refused with an error naming its path", () => {
  const node: Record<string, unknown> = { name: "a" };
  node.self = node;
  assertThrows(() => serialize([{ node }]), { name: "TypeError", message: /cycle at props\[0\]\.node\.self/ });
});

Deno.test("a value referenced twice without a cycle is not mistaken for one", () => {
  const shared = { x: 1 };
  assertEquals(roundTrip({ a: shared, b: shared, list: [shared, shared] }), {
    a: { x: 1 },
    b: { x: 1 },
    list: [{ x: 1 }, { x: 1 }],
  });
});

Deno.test("a function inside a Map or a signal is refused with its path", () => {
  assertThrows(() => serialize({ m: new Map([["k", () => 1]]) }), { message: /function at props\.m\[0\]/ });
  assertThrows(() => serialize({ s: signal(() => 1) }), { message: /function at props\.s\.value/ });
});

Deno.test("class instances other than the supported ones are refused by class name", () => {
  assertThrows(() => serialize({ re: /x/ }), { name: "TypeError", message: /RegExp at props\.re/ });
  assertThrows(() => serialize({ bytes: new Uint8Array(2) }), { message: /Uint8Array at props\.bytes/ });
  class Point {
    x = 1;
  }
  assertThrows(() => serialize({ p: new Point() }), { message: /Point at props\.p/ });
});

Deno.test("an object without a prototype is serialized as a plain object", () => {
  const bare = Object.assign(Object.create(null), { a: 1 });
  assertEquals(roundTrip({ bare }), { bare: { a: 1 } });
});

Deno.test("stringifyForHtml: `</script>` and `<!--` in strings cannot break out of the script element", () => {
  const hostile = "</script><script>alert(1)</script><!-- \u2028\u2029 </SCRIPT >";
  const text = stringifyForHtml(serialize({ hostile }));
  assert(!text.includes("<"), "no raw < remains");
  assert(!text.includes("\u2028") && !text.includes("\u2029"));
  assertEquals(roundTrip({ hostile }), { hostile });
});

Deno.test("stringifyForHtml output is valid JSON that parses to the same value", () => {
  const value = { a: "<b>&amp;</b>", n: [1, 2], s: "$& $' $$ $`" };
  assertEquals(JSON.parse(stringifyForHtml(value)), value);
});

Deno.test("a deeply frozen value is encoded once and kept; a frozen one holding a changeable value is not", () => {
  const inner = { label: "a" };
  const mixed = Object.freeze({ inner });
  const constant = Object.freeze({ words: Object.freeze(["x", "y"]) });
  const first = serialize([{ text: constant, mixed }]);
  inner.label = "b";
  const second = serialize([{ text: constant, mixed }]);
  assertEquals((second.v as { text: unknown }[])[0].text, (first.v as { text: unknown }[])[0].text);
  assert((second.v as { text: unknown }[])[0].text === (first.v as { text: unknown }[])[0].text);
  assertEquals((second.v as { mixed: { inner: { label: string } } }[])[0].mixed.inner.label, "b");
});
