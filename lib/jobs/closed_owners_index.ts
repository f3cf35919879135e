/**
 * The `closed-owners-index` job (docs/decisions.md, Background work, "Index backfills"; Data rights, "Read by
 * person"): every 5 minutes until done, it indexes by owner the internships and then the opportunities archived before
 * the archives' owner index (`Archive.indexOwners`), both within one run's `BACKFILL_BUDGET_MS`, giving way to requests
 * between writes. Once both are done a run costs two reads.
 */
import type { Job } from "./job.ts";
import { BACKFILL_BUDGET_MS, type BackfillRun } from "@/lib/kv/backfill.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";

export const closedOwnersIndexJob: Job = {
  name: "closed-owners-index",
  schedule: "*/5 * * * *",
  async run(ctx) {
    const run: BackfillRun = { giveWay: () => ctx.requests.giveWay(), until: performance.now() + BACKFILL_BUDGET_MS };
    const internships = await (await internshipStore(ctx.kv)).archive.indexOwners(run);
    const opportunities = await (await opportunityStore(ctx.kv)).archive.indexOwners(run);
    return { internships, opportunities };
  },
};
