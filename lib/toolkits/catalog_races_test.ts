import { assert } from "@/tests/helpers/assert.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { BusyError } from "@/lib/errors.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";
import type { User } from "@/lib/users/users.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { createLogger } from "@/lib/log.ts";
import { BannerCreateSchema, createBanner, updateBanner } from "@/lib/ungatekeep/banners.ts";
import { createContentItem, createToolkit, deleteContentItem, updateContentItem, updateToolkit } from "./catalog.ts";

Deno.test("toolkit, lesson and banner writes that keep losing their races answer busy (503), not a bare error", async () => {
  using kv = await Deno.openKv(":memory:");
  const creator = { id: "admin-1", name: "Asha Admin" } as User;
  const toolkit = await createToolkit(kv, {
    creator,
    input: { title: "Resume Toolkit", description: "Lessons.", price: 499 },
  });
  const lesson = await createContentItem(kv, {
    toolkitId: toolkit.id,
    title: "One",
    type: "article",
    content: "<p>Hi</p>",
  });
  const files = new KvObjectStore(kv);
  const log = createLogger("error", () => {});
  const banner = await createBanner(kv, { files, input: BannerCreateSchema.parse({ title: "Apply early" }) });
  // Every write loses, as when other writers keep changing the same records.
  const losing = kvWithCommits(kv, () => Promise.resolve({ ok: false }));
  const writes: [string, () => Promise<unknown>][] = [
    ["toolkit update", () => updateToolkit(losing, { id: toolkit.id, patch: { isActive: false } })],
    ["lesson creation", () => createContentItem(losing, { toolkitId: toolkit.id, title: "Two", type: "article" })],
    ["lesson update", () => updateContentItem(losing, { id: lesson.id, patch: { title: "One again" } })],
    ["lesson deletion", () => deleteContentItem(losing, lesson.id)],
    ["banner update", () => updateBanner(losing, { files, log, id: banner.id, patch: { title: "Apply now" } })],
  ];
  for (const [what, write] of writes) {
    const error = await write().then(() => null, (error) => error);
    assert(error instanceof BusyError && error.message === PLATFORM_REFUSALS.busy, `${what}: ${error}`);
  }
});
