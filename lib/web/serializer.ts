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
 * Serializes `value` (the array of island props of a page) into an envelope.
 * @throws TypeError for a function, symbol, JSX element or cycle, naming its path.
 */
export function serialize(value: unknown): SerializedProps {
  const signals: unknown[] = [];
  const signalIndex = new Map<object, number>();
  const seen = new Set<object>();

  function encode(v: unknown, path: string): Encoded {
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
        throw new TypeError(`Cannot serialize a function at ${path}: island props must be data`);
      case "symbol":
        throw new TypeError(`Cannot serialize a symbol at ${path}: island props must be data`);
    }
    if (v === null) return null;
    const obj = v as object;
    if (isSignal(obj)) {
      let index = signalIndex.get(obj);
      if (index === undefined) {
        index = signals.length;
        signalIndex.set(obj, index);
        signals.push(null);
        signals[index] = encode(obj.peek(), `${path}.value`);
      }
      return { $: "sig", v: index };
    }
    if (obj instanceof Date) return { $: "d", v: obj.toISOString() };
    if (obj instanceof URL) return { $: "url", v: obj.href };
    if ("__v" in obj || ("props" in obj && "type" in obj && obj.constructor === undefined)) {
      throw new TypeError(`Cannot serialize a JSX element at ${path}: islands take data props, not children`);
    }
    if (seen.has(obj)) throw new TypeError(`Cannot serialize a cycle at ${path}`);
    seen.add(obj);
    try {
      if (obj instanceof Map) {
        return {
          $: "m",
          v: [...obj].map(([k, val], i) => [encode(k, `${path}<key ${i}>`), encode(val, `${path}[${i}]`)]),
        };
      }
      if (obj instanceof Set) return { $: "s", v: [...obj].map((item, i) => encode(item, `${path}[${i}]`)) };
      if (Array.isArray(obj)) return Array.from(obj, (item, i) => encode(item, `${path}[${i}]`));
      const proto = Object.getPrototypeOf(obj);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`Cannot serialize a ${obj.constructor?.name ?? "class instance"} at ${path}`);
      }
      // fromEntries defines own properties, so a `__proto__` key stays data.
      const out = Object.fromEntries(Object.entries(obj).map(([k, val]) => [k, encode(val, `${path}.${k}`)]));
      return Object.hasOwn(out, "$") ? { $: "o", v: out } : out;
    } finally {
      seen.delete(obj);
    }
  }

  const v = encode(value, "props");
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
