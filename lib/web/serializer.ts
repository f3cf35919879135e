/**
 * Island props serializer: turns the props of every island on a page into one JSON text
 * that the browser turns back into values. Keeps what JSON loses: `undefined`, `Date`,
 * `URL`, `Map`, `Set`, non-finite numbers and `-0`, `bigint`, and signals (one signal passed
 * to two islands stays one signal in the browser). Functions, symbols, JSX elements, cycles
 * and class instances other than those above are refused with a `TypeError` that names the
 * path of the bad value.
 *
 * Encoding: plain JSON values stay as they are; anything else is an object
 * `{"$": tag, "v": value}` (an object that has its own `$` key is wrapped as tag `o`).
 * Signals are `{"$": "sig", "v": index}` into the `signals` array of the envelope.
 */

/** A value with a readable and writable `.value` that is observed by islands. */
export interface SignalLike<T = unknown> {
  value: T;
  peek(): T;
}

/** The JSON-safe envelope written into the page. */
export interface SerializedProps {
  v: unknown;
  signals: unknown[];
}

type Encoded = unknown;

function isSignal(value: object): value is SignalLike {
  // @preact/signals' Signal carries a `brand` symbol for its type checks.
  return (value as { brand?: symbol }).brand === Symbol.for("preact-signals");
}

/**
 * Encodings of deeply frozen plain objects and arrays (nothing inside them can change, e.g. the messages of an
 * island's `text` prop, kept by the translator and passed on every render), made once and shared by every envelope.
 */
const frozenEncodings = new WeakMap<object, Encoded>();

/**
 * Serializes `value` (the array of island props of a page) into an envelope.
 * @throws TypeError for a function, symbol, JSX element or cycle, naming its path.
 */
export function serialize(value: unknown): SerializedProps {
  const signals: unknown[] = [];
  const signalIndex = new Map<object, number>();
  const seen = new Set<object>();
  // The path of the value being encoded, as segments after "props" (`[0]`, `.text`), joined only for an error.
  const trail: string[] = [];
  const path = () => `props${trail.join("")}`;
  // How many values met so far whose encoding may change between calls (anything but a frozen object or a primitive).
  let changeable = 0;

  function at(segment: string, v: unknown): Encoded {
    trail.push(segment);
    const encoded = encode(v);
    trail.pop();
    return encoded;
  }

  function encode(v: unknown): Encoded {
    switch (typeof v) {
      case "string":
      case "boolean":
        return v;
      case "number":
        return Number.isFinite(v) && !Object.is(v, -0) ? v : { $: "n", v: Object.is(v, -0) ? "-0" : String(v) };
      case "undefined":
        return { $: "u" };
      case "bigint":
        return { $: "b", v: v.toString() };
      case "function":
        throw new TypeError(`Cannot serialize a function at ${path()}: island props must be data`);
      case "symbol":
        throw new TypeError(`Cannot serialize a symbol at ${path()}: island props must be data`);
    }
    if (v === null) return null;
    const obj = v as object;
    if (isSignal(obj)) {
      changeable++;
      let index = signalIndex.get(obj);
      if (index === undefined) {
        index = signals.length;
        signalIndex.set(obj, index);
        signals.push(null);
        signals[index] = at(".value", obj.peek());
      }
      return { $: "sig", v: index };
    }
    if (obj instanceof Date) {
      changeable++;
      return { $: "d", v: obj.toISOString() };
    }
    if (obj instanceof URL) {
      changeable++;
      return { $: "url", v: obj.href };
    }
    if ("__v" in obj || ("props" in obj && "type" in obj && obj.constructor === undefined)) {
      throw new TypeError(`Cannot serialize a JSX element at ${path()}: islands take data props, not children`);
    }
    const frozen = Object.isFrozen(obj);
    if (frozen) {
      const kept = frozenEncodings.get(obj);
      if (kept !== undefined) return kept;
    } else changeable++;
    if (seen.has(obj)) throw new TypeError(`Cannot serialize a cycle at ${path()}`);
    seen.add(obj);
    const before = changeable;
    try {
      let encoded: Encoded;
      if (obj instanceof Map) {
        changeable++;
        encoded = { $: "m", v: Array.from(obj, ([k, val], i) => [at(`<key ${i}>`, k), at(`[${i}]`, val)]) };
      } else if (obj instanceof Set) {
        changeable++;
        encoded = { $: "s", v: Array.from(obj, (item, i) => at(`[${i}]`, item)) };
      } else if (Array.isArray(obj)) encoded = Array.from(obj, (item, i) => at(`[${i}]`, item));
      else {
        const proto = Object.getPrototypeOf(obj);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`Cannot serialize a ${obj.constructor?.name ?? "class instance"} at ${path()}`);
        }
        // A `__proto__` key is defined as an own property, so it stays data.
        const out: Record<string, Encoded> = {};
        for (const k of Object.keys(obj)) {
          const item = at(`.${k}`, (obj as Record<string, unknown>)[k]);
          if (k === "__proto__") Object.defineProperty(out, k, { value: item, enumerable: true, writable: true });
          else out[k] = item;
        }
        encoded = Object.hasOwn(out, "$") ? { $: "o", v: out } : out;
      }
      if (frozen && changeable === before) frozenEncodings.set(obj, encoded);
      return encoded;
    } finally {
      seen.delete(obj);
    }
  }

  const v = encode(value);
  return { v, signals };
}

/**
 * Writes a JSON value as text that is safe inside an HTML `<script>` element
 * (`<`, U+2028 and U+2029 are escaped).
 */
export function stringifyForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * Turns an envelope back into values. `makeSignal` builds a signal from its first value;
 * it is called once per distinct signal.
 */
export function deserialize(envelope: SerializedProps, makeSignal: (value: unknown) => unknown): unknown {
  const signals: unknown[] = [];
  const decodeSignal = (index: number) => {
    signals[index] ??= makeSignal(decode(envelope.signals[index]));
    return signals[index];
  };
  function decode(v: Encoded): unknown {
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(decode);
    const obj = v as Record<string, unknown>;
    if (typeof obj.$ === "string") {
      switch (obj.$) {
        case "u":
          return undefined;
        case "n":
          return Number(obj.v);
        case "b":
          return BigInt(obj.v as string);
        case "d":
          return new Date(obj.v as string);
        case "url":
          return new URL(obj.v as string);
        case "m":
          return new Map((obj.v as [Encoded, Encoded][]).map(([k, val]) => [decode(k), decode(val)]));
        case "s":
          return new Set((obj.v as Encoded[]).map(decode));
        case "sig":
          return decodeSignal(obj.v as number);
        case "o":
          return decodeObject(obj.v as Record<string, Encoded>);
      }
    }
    return decodeObject(obj);
  }
  function decodeObject(obj: Record<string, Encoded>) {
    return Object.fromEntries(Object.entries(obj).map(([k, val]) => [k, decode(val)]));
  }
  return decode(envelope.v);
}
