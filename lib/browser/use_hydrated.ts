/** Browser-safe: whether an island has hydrated, for controls that wait for their handlers. */
import { useEffect, useState } from "preact/hooks";

/** True once the island has hydrated: submit buttons stay disabled until the handlers exist. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
