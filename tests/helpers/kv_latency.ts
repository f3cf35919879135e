/**
 * A KV far away, as Deno Deploy's KV is from an isolate outside its primary region: every read and every atomic commit
 * takes `ms` milliseconds, half on the way there (a commit is applied then) and half on the way back. Requests that
 * arrive together then read the same versions and race for their commits in step, which an in-memory KV (answering in
 * microseconds) almost never shows. Lists and everything else pass through.
 */

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `operation` with its `commit` taking `ms` milliseconds; its other methods chain as before. */
function lateCommits(operation: Deno.AtomicOperation, ms: number): Deno.AtomicOperation {
  const proxy: Deno.AtomicOperation = new Proxy(operation, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "commit") {
        return async () => {
          await wait(ms / 2);
          const result = await target.commit();
          await wait(ms / 2);
          return result;
        };
      }
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        return result === target ? proxy : result;
      };
    },
  });
  return proxy;
}

/** `kv` with every `get`, `getMany` and atomic commit taking `ms` milliseconds (see the module docstring). */
export function withLatency(kv: Deno.Kv, ms: number): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getMany") {
        return async (...args: unknown[]) => {
          await wait(ms / 2);
          const result = await value.apply(target, args);
          await wait(ms / 2);
          return result;
        };
      }
      if (property === "atomic") return () => lateCommits(target.atomic(), ms);
      return value.bind(target);
    },
  });
}
