import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { addLesson, addToolkit, buy, openShop } from "@/tests/fixtures/toolkits.ts";
import { refund } from "./helpers.ts";

/**
 * `kv` whose atomic writes run `before` once, just before the first of them commits: another request's write
 * landing between what a function read and its own commit.
 */
function interleaved(kv: Deno.Kv, before: () => Promise<void>): Deno.Kv {
  let pending: (() => Promise<void>) | null = before;
  const wrap = <T extends object>(target: T, onCommit: boolean): T => {
    const proxy: T = new Proxy(target, {
      get(obj, prop) {
        const value = Reflect.get(obj, prop);
        if (typeof value !== "function") return value;
        if (prop === "atomic") return () => wrap(kv.atomic(), true);
        if (onCommit && prop === "commit") {
          return async () => {
            const run = pending;
            pending = null;
            await run?.();
            return await value.call(obj);
          };
        }
        return (...args: unknown[]) => {
          const result = value.apply(obj, args);
          return result === obj ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return wrap(kv, false);
}

Deno.test("certificate: a refund landing while the last lesson is recorded leaves no valid certificate", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const lesson = await addLesson(shop, kit.id);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const kv = interleaved(shop.t.kv, async () => {
    assertEquals((await refund(shop, purchaseId)).status, 200);
  });
  await recordProgress(kv, { toolkitId: kit.id, viewer: buyer.user, contentItemId: lesson.id, completed: true });
  const held = await certificatesOf(shop.t.kv, buyer.user.id);
  assertEquals(held.filter((c) => c.revokedAt === null), []);
});

Deno.test("certificate page: LinkedIn and the way back for its holder only; Copy link for all; neither nor Print once revoked", async () => {
  await using shop = await openShop();
  const [learner, visitor] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 500 });
  const lesson = await addLesson(shop, kit.id);
  const { purchaseId } = await buy(shop, learner, kit.id);
  const done = await recordProgress(shop.t.kv, {
    toolkitId: kit.id,
    viewer: learner.user,
    contentItemId: lesson.id,
    completed: true,
  });
  const page = async (who?: { headers: Record<string, string> }) =>
    await (await shop.t.fetch(done.certificateUrl!, { headers: who?.headers ?? {} })).text();
  const mine = await page(learner);
  for (const words of ["Add to LinkedIn", "Copy link", "Print certificate", `href="/toolkits/${kit.id}"`]) {
    assert(mine.includes(words), `the holder gets ${words}`);
  }
  for (const other of [await page(visitor), await page()]) {
    assert(!other.includes("Add to LinkedIn") && !other.includes(`href="/toolkits/${kit.id}"`), "not theirs");
    assert(other.includes("Copy link") && other.includes("Print certificate"), "but they can copy and print it");
  }
  assertEquals((await refund(shop, purchaseId)).status, 200);
  const revoked = await page(learner);
  assert(revoked.includes("Revoked on"), "it says so");
  for (const words of ["Add to LinkedIn", "Copy link", "Print certificate"]) {
    assert(!revoked.includes(words), `a revoked one offers no ${words}`);
  }
});
