/**
 * `useDebouncedValue(value, delayMs)`: `value` trimmed, once it has stayed the same for `delayMs`
 * (a search box that asks the server only when the typing pauses). The first render returns it
 * at once, so a page's initial request is not delayed and not made twice.
 */
import { useEffect, useState } from "preact/hooks";

export function useDebouncedValue(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value.trim());
  useEffect(() => {
    const next = value.trim();
    if (next === settled) return;
    const timer = setTimeout(() => setSettled(next), delayMs);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
