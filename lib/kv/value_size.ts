/**
 * What a value weighs in a KV write, estimated without serialising it (docs/decisions.md, Background work, "The
 * outbox"; Applications, "Every applicant hears back"): KV stores a value in V8's serialization, which keeps a string at one byte a character
 * when every character is within U+00FF and at two bytes a UTF-16 unit otherwise (a `₹`, any Hindi). Counting UTF-8
 * bytes would pass Hindi texts of twice the room; counting two bytes a unit never does.
 */

/** The most bytes one KV value takes once serialised: a write of a larger one throws "Value too large". */
export const KV_VALUE_MAX_BYTES = 65_536;

/**
 * An upper bound of the bytes `value` (a record as stored, or one string) takes once serialised for KV: every string
 * and property name at two bytes a UTF-16 unit, and eight bytes for each string's header, each other value and each
 * container.
 */
export function valueBytes(value: unknown): number {
  if (typeof value === "string") return value.length * 2 + 8;
  if (Array.isArray(value)) {
    let bytes = 8;
    for (const part of value) bytes += valueBytes(part);
    return bytes;
  }
  if (value && typeof value === "object") {
    let bytes = 8;
    for (const name in value) bytes += valueBytes(name) + valueBytes((value as Record<string, unknown>)[name]);
    return bytes;
  }
  return 8;
}
