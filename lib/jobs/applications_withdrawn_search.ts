/**
 * The `applications-withdrawn-search` job (`runBackfill`; docs/decisions.md, Background work, "Index backfills";
 * Applications, "Status changes"): every 5 minutes until done, it writes again the search text of the applications
 * withdrawn before a withdrawn application was found by its applicant's name alone (`WITHDRAWN_SEARCH_BACKFILL`);
 * answers how many it wrote (then one read a run).
 */
import type { Job } from "./job.ts";
import { runBackfill } from "@/lib/kv/backfill.ts";
import { WITHDRAWN_SEARCH_BACKFILL } from "@/lib/applications/store.ts";

export const applicationsWithdrawnSearchJob: Job = {
  name: "applications-withdrawn-search",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ written: (await runBackfill(ctx.kv, WITHDRAWN_SEARCH_BACKFILL, ctx.requests)).written }),
};
