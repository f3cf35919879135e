/**
 * Internship storage (docs/decisions.md, Internships; docs/performance.md, Why it is fast): the internship layout of
 * the chunked store of `lib/kv/chunked/` (its docstring has the design: chunks, atomic writes, sync of other processes'
 * writes) under the key prefix "internships", with the internship columns, its archive of closed and deleted listings
 * (`lib/kv/chunked/archive.ts`; docs/decisions.md, Open and closed listings), and the owners shown beside each listing.
 * Keys (owned by this store only): `["internships", id]`, `["internships_chunks", n]`, `["internships_index", n]`,
 * `["internships_chunk_stamps", n]`, `["internships_meta", "open" | "changes"]`, and the archive's
 * `["internships_closed", id]`, `["internships_closed_blocks", createdMs, id]`, `["internships_closed_dir", createdMs,
 * id]`, `["internships_closed_by_owner", userId, id]` and `["internships_closed_meta", "owner_index"]`.
 */
import type { ChunkedLayout } from "@/lib/kv/chunked/layout.ts";
import type { ChunkedReadModel } from "@/lib/kv/chunked/read_model.ts";
import type { Archive } from "@/lib/kv/chunked/archive.ts";
import { chunkedStore } from "@/lib/kv/chunked/store.ts";
import type { ChunkWriter } from "@/lib/kv/chunked/writer.ts";
import { UserSummaryCache } from "@/lib/users/summary_cache.ts";
import { type OrganizationDirectory, organizationDirectory } from "@/lib/organizations/store.ts";
import { InternshipColumns, type InternshipEntry, internshipEntry, internshipSearchText } from "./columns.ts";
import type { Internship } from "./schema.ts";

export { SYNC_INTERVAL_MS } from "@/lib/kv/chunked/read_model.ts";

/** How often (ms) at most the owners' summaries are checked against the users' change marker. */
const OWNER_TTL_MS = 5000;

const layout: ChunkedLayout<Internship, InternshipEntry> = {
  prefix: "internships",
  noun: "internships",
  entry: internshipEntry,
  searchText: internshipSearchText,
  owner: (record) => record.userId ?? null,
  fields: 10,
};

const chunks = chunkedStore(layout, (slots) => new InternshipColumns(slots));

/** The internship store of one KV in this process: read model, writer, archive, owner summaries and organizations. */
export class InternshipStore {
  readonly owners: UserSummaryCache;

  constructor(
    readonly model: ChunkedReadModel<Internship, InternshipEntry, InternshipColumns>,
    readonly writer: ChunkWriter<Internship, InternshipEntry, InternshipColumns>,
    readonly archive: Archive<Internship, InternshipEntry, InternshipColumns>,
    readonly organizations: OrganizationDirectory,
    readonly kv: Deno.Kv,
  ) {
    this.owners = new UserSummaryCache(kv, OWNER_TTL_MS);
  }

  /**
   * Grows whenever a listing, an owner or an organization changes: what was derived from the store stays valid until
   * then.
   */
  get version(): number {
    return this.model.version + this.owners.version + this.organizations.version;
  }
}

const stores = new WeakMap<Deno.Kv, InternshipStore>();

/**
 * The internship store of `kv`: loaded on first use, then brought up to date with other
 * processes' writes (at most every `SYNC_INTERVAL_MS`) and organization changes (every second); owner changes are
 * checked for every 5 s at most without the caller waiting (`UserSummaryCache.refresh`), so a rename shows from the
 * next request on.
 */
export async function internshipStore(kv: Deno.Kv): Promise<InternshipStore> {
  const [{ model, writer, archive }, organizations] = await Promise.all([chunks(kv), organizationDirectory(kv)]);
  let store = stores.get(kv);
  if (store?.model !== model) stores.set(kv, store = new InternshipStore(model, writer, archive, organizations, kv));
  // A failed check is tried again 5 s later; meanwhile the known owners are shown.
  store.owners.refresh().catch(() => {});
  return store;
}
