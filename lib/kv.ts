/** Opening the Deno KV store (CONTRACT.md §1 `KV_PATH`). */
import { dirname } from "node:path";

/**
 * Opens KV at `path`: a file (its folder is created), `:memory:`, a KV Connect URL, or
 * undefined for the platform's KV on Deno Deploy.
 */
export async function openKv(path: string | undefined): Promise<Deno.Kv> {
  if (path && path !== ":memory:" && !/^https?:\/\//.test(path)) {
    await Deno.mkdir(dirname(path), { recursive: true });
  }
  return await Deno.openKv(path);
}
