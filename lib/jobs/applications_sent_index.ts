/**
 * The `applications-sent-index` job (docs/decisions.md, Background work, "Index backfills"; Applications, "The tracker
 * follows"): every 5 minutes until done, it gives the applications sent before them their applicants' entries by when
 * they were sent (`indexSentByPerson`), which the tracker's pages read once it is done, for at most `RUN_BUDGET_MS` a
 * run, giving way to requests between writes. Once done a run costs one read.
 */
import type { Job } from "./job.ts";
import { indexSentByPerson } from "@/lib/applications/store.ts";

/** How long (ms) one run works before it stops; the next run goes on from the cursor. */
const RUN_BUDGET_MS = 20_000;

export const applicationsSentIndexJob: Job = {
  name: "applications-sent-index",
  schedule: "*/5 * * * *",
  async run(ctx) {
    const until = performance.now() + RUN_BUDGET_MS;
    return { indexed: await indexSentByPerson(ctx.kv, { giveWay: () => ctx.requests.giveWay(), until }) };
  },
};
