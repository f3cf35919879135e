/**
 * A value made on first use (modules only some requests need are imported by the first
 * of them, not at start). Concurrent first calls share one `make()`; a failed one is not kept, so
 * the next call tries again.
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    made ??= make().catch((error) => {
      made = undefined;
      throw error;
    });
}
