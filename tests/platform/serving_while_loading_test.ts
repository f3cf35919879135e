/**
 * Serving while the read models load (docs/decisions.md, Open and closed listings, "Serving while loading"): over
 * HTTP, the health check, assets and pages that read no listings answer while the internship load is held; a list
 * request waits for that same load and answers once it is done.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/lib/users/users.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { serveWhileLoading } from "@/lib/platform/server.ts";
import { loadAssets } from "@/lib/web/assets.ts";
import { Forbidden } from "@/components/Forbidden.tsx";
import { RefusalPage } from "@/components/RefusalPage.tsx";
import manifest from "@/routes.gen.ts";
import { checkedFetch } from "@/tests/helpers/openapi_answers.ts";

const root = new URL("../..", import.meta.url).pathname;

/** `kv` with its listing of internship index chunks (the read model's load) held until `release` is called. */
function heldLoad(kv: Deno.Kv): { kv: Deno.Kv; release: () => void } {
  const gate = Promise.withResolvers<void>();
  const held = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "list") return typeof value === "function" ? value.bind(target) : value;
      return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
        const prefix = "prefix" in selector ? selector.prefix : [];
        if (prefix[0] !== "internships_index") return target.list(selector, options);
        return (async function* () {
          await gate.promise;
          yield* target.list(selector, options);
        })();
      };
    },
  });
  return { kv: held, release: () => gate.resolve() };
}

Deno.test("the server answers health, assets and pages without listings while the read model loads", async () => {
  await using t = await createTestApp();
  const owner = await createUser(t.kv, { name: "O", email: "o@x.example", emailVerified: true, role: "member" });
  // Written through the test's handle; the held handle below has no read model yet, as in a fresh process.
  await createInternships(t.kv, owner, [internshipInput({ title: "Loaded later" })]);
  const { kv, release } = heldLoad(t.kv);
  const port = freePort();
  const services = { ...t.services, kv, config: { ...t.services.config, port, host: "127.0.0.1" } };
  const assets = await loadAssets(`${root}_build`, `${root}static`);
  const { server, loaded } = serveWhileLoading(services, {
    manifest,
    assets,
    forbiddenPage: Forbidden,
    refusalPage: RefusalPage,
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    let done = false;
    loaded.finally(() => done = true);
    let listed = false;
    const list = checkedFetch(`${origin}/api/internships`).then((res) => (listed = true, res));

    assertEquals((await checkedFetch(`${origin}/api/health`)).status, 200);
    const page = await fetch(`${origin}/sign-in`);
    assertEquals(page.status, 200);
    // Pages inline their CSS rules; the built asset a page names is its boot module.
    const module = (await page.text()).match(/src="(\/_build\/[^"]+\.js)"/)?.[1];
    assert(module, "the page loads a built module");
    const asset = await fetch(`${origin}${module}`);
    assertEquals(asset.status, 200);
    await asset.body?.cancel();
    assertEquals([done, listed], [false, false], "the list waits for the load");

    release();
    const res = await list;
    assertEquals(res.status, 200);
    assertEquals((await res.json()).internships.map((i: { title: string }) => i.title), ["Loaded later"]);
    assert((await loaded).kvBytes > 0);
  } finally {
    release();
    await server.shutdown();
  }
});

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
