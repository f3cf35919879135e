/**
 * The `closed-owners-index` job (docs/decisions.md, Background work, "Index backfills"; Data rights, "Read by
 * person"): every 5 minutes until done, it indexes by owner the internships and then the opportunities archived before
 * the archives' owner index (`Archive.indexOwners`), for at most `RUN_BUDGET_MS` a run, giving way to requests between
 * writes. Once both are done a run costs two reads.
 */
import type { Job } from "./job.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";

/** How long (ms) one run works before it stops; the next run goes on from the cursors. */
const RUN_BUDGET_MS = 20_000;

export const closedOwnersIndexJob: Job = {
  name: "closed-owners-index",
  schedule: "*/5 * * * *",
  async run(ctx) {
    const until = performance.now() + RUN_BUDGET_MS;
    const giveWay = () => ctx.requests.giveWay();
    const internships = await (await internshipStore(ctx.kv)).archive.indexOwners({ giveWay, until });
    const opportunities = await (await opportunityStore(ctx.kv)).archive.indexOwners({ giveWay, until });
    return { internships, opportunities };
  },
};
