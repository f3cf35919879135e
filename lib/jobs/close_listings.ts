/**
 * The `close-listings` job (docs/decisions.md, Open and closed listings, "Closing"): every hour, at minute 5, it moves
 * the listings that closed (their deadline's IST day is before today) or were deleted out of the read models into
 * their archives, giving way to requests between writes. Only KV writes, each checked against what it read, so a run
 * overlapping another (another process, a run by hand) finds what the other moved gone and does nothing twice.
 */
import { istToday } from "@/lib/dates.ts";
import type { Job } from "./job.ts";
import { closeInternships } from "@/lib/internships/writes.ts";
import { closeOpportunities } from "@/lib/opportunities/opportunities.ts";

export const closeListingsJob: Job = {
  name: "close-listings",
  schedule: "5 * * * *",
  async run(ctx) {
    const today = istToday(ctx.now);
    const giveWay = () => ctx.requests.giveWay();
    return {
      internships: await closeInternships(ctx.kv, { today, giveWay }),
      opportunities: await closeOpportunities(ctx.kv, { today, giveWay }),
    };
  },
};
