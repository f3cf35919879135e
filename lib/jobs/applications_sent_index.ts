/**
 * The `applications-sent-index` job (`runBackfill`; docs/decisions.md, Background work, "Index backfills";
 * Applications, "The tracker follows"): every 5 minutes until done, it gives the applications sent before them their
 * applicants' entries by when they were sent (`SENT_INDEX_BACKFILL`), which the tracker's pages read once it is done;
 * answers how many applications a run walked (then one read a run).
 */
import type { Job } from "./job.ts";
import { runBackfill } from "@/lib/kv/backfill.ts";
import { SENT_INDEX_BACKFILL } from "@/lib/applications/store.ts";

export const applicationsSentIndexJob: Job = {
  name: "applications-sent-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ indexed: (await runBackfill(ctx.kv, SENT_INDEX_BACKFILL, ctx.requests)).read }),
};
