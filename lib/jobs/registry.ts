/**
 * Every job of the platform and its schedule (docs/decisions.md, Background work). A domain with work that runs
 * later adds its job to `JOBS`; `lib/jobs/crons.ts` registers a cron for each, and `POST /api/admin/jobs/{name}/run`
 * runs one by hand.
 */
import { accountDeletionsJob } from "@/lib/account/deletion.ts";
import { outboxJob } from "@/lib/mail/delivery.ts";
import { pushOutboxJob, startPushDelivery } from "@/lib/push/outbox.ts";
import { alertsDigestJob } from "@/lib/alerts/digest.ts";
import { deadlineRemindersJob } from "@/lib/alerts/reminders.ts";
import { reconcilePaymentsJob } from "@/lib/purchases/reconcile.ts";
import { reconcileRefundsJob } from "@/lib/purchases/reconcile_refunds.ts";
import { purchaseCountsJob, purchaseToolkitIndexJob } from "@/lib/purchases/purchases.ts";
import { creditNotesLateJob } from "@/lib/purchases/late_credit_notes.ts";
import { organizationsLinkJob } from "@/lib/organizations/link.ts";
import { organizationsUnlinkJob } from "@/lib/organizations/unlink.ts";
import { closeListingsJob } from "./close_listings.ts";
import { closedOwnersIndexJob } from "./closed_owners_index.ts";
import { applicationsSentIndexJob } from "./applications_sent_index.ts";
import { applicationsWithdrawnSearchJob } from "./applications_withdrawn_search.ts";
import { applicationsTimeoutJob } from "@/lib/applications/timeout.ts";
import { applicationsEndedJob } from "@/lib/applications/ended.ts";
import { listingChangesJob } from "@/lib/applications/terms_changed.ts";
import { postDeletionsJob, postsAdminIndexJob, postsAuthorIndexJob } from "@/lib/ungatekeep/posts.ts";
import { usersIndexJob } from "@/lib/users/user_index.ts";
import { posterHidesJob } from "@/lib/moderation/poster_hides.ts";
import { demotionClosesJob } from "@/lib/internships/demotion_closes.ts";
import { managerClosesJob } from "@/lib/internships/manager_closes.ts";
import { commentPurgesJob } from "@/lib/moderation/comment_purges.ts";
import { reportSummariesJob, reportTargetsIndexJob } from "@/lib/reports/reports.ts";
import { reportRemovalsJob } from "@/lib/reports/removals.ts";
import { adminLogIndexJob } from "@/lib/admin_log/admin_log.ts";
import { moderationCountsJob } from "@/lib/moderation/queue.ts";
import { notificationGroupsIndexJob } from "@/lib/notifications/notifications.ts";
import { appendAdminLog } from "@/lib/admin_log/admin_log.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { Job, JobCounts } from "./job.ts";
import { deleteRemovedRuns, recordRun, type RunTrigger, shortError } from "./runs.ts";

/**
 * Deletes, daily, the last-run records of jobs removed from the registry once a week old (`deleteRemovedRuns`,
 * docs/decisions.md, Background work, "Last runs"): the reads of the jobs' status write nothing.
 */
const removedJobsJob: Job = {
  name: "removed-jobs",
  schedule: "0 22 * * *",
  run: async ({ kv, now }) => ({ removed: await deleteRemovedRuns(kv, { jobs: JOBS, now }) }),
};

/** The jobs, each with a unique name. */
export const JOBS: readonly Job[] = [
  outboxJob,
  pushOutboxJob,
  accountDeletionsJob,
  alertsDigestJob,
  deadlineRemindersJob,
  reconcilePaymentsJob,
  reconcileRefundsJob,
  organizationsLinkJob,
  organizationsUnlinkJob,
  closeListingsJob,
  applicationsTimeoutJob,
  applicationsEndedJob,
  listingChangesJob,
  postDeletionsJob,
  usersIndexJob,
  postsAdminIndexJob,
  postsAuthorIndexJob,
  purchaseCountsJob,
  creditNotesLateJob,
  posterHidesJob,
  demotionClosesJob,
  managerClosesJob,
  commentPurgesJob,
  reportTargetsIndexJob,
  reportRemovalsJob,
  adminLogIndexJob,
  moderationCountsJob,
  closedOwnersIndexJob,
  applicationsSentIndexJob,
  applicationsWithdrawnSearchJob,
  reportSummariesJob,
  purchaseToolkitIndexJob,
  removedJobsJob,
  notificationGroupsIndexJob,
];

/** The job named `name`, or undefined. */
export function findJob(name: string): Job | undefined {
  return JOBS.find((job) => job.name === name);
}

/** What a run answers: the job's name and its counts. */
export type JobRun = { job: string } & Record<string, string | number>;

/**
 * Runs `job` once at `now`, logs what it did and records how it ended (`lib/jobs/runs.ts`: its start is `now`, its
 * trigger `trigger`, by hand unless a cron's). A record that cannot be written is logged; the run's outcome stands.
 * Returns the job's name and counts. @throws what the run throws (its failure recorded first).
 */
export async function runJob(
  job: Job,
  services: Services,
  now = new Date(),
  trigger: RunTrigger = "hand",
): Promise<JobRun> {
  const started = performance.now();
  const ended = (outcome: { counts: JobCounts } | { error: unknown }, ms = Math.round(performance.now() - started)) => {
    const run = { startedAt: now.toISOString(), ms, trigger };
    return recordRun(
      services.kv,
      job.name,
      "counts" in outcome
        ? { run: { ...run, counts: outcome.counts } }
        : { failure: { ...run, error: shortError(outcome.error) } },
    ).catch((error) => services.log.error("job run not recorded", { job: job.name, error: String(error) }));
  };
  let counts: JobCounts;
  try {
    counts = await job.run({ ...services, now });
  } catch (error) {
    await ended({ error });
    throw error;
  }
  const ms = Math.round(performance.now() - started);
  services.log.info("job ran", { job: job.name, ms, ...counts });
  await ended({ counts }, ms);
  // What the job notified goes out now, not at the push outbox's next minute.
  if (job !== pushOutboxJob) startPushDelivery(services);
  return { job: job.name, ...counts };
}

/**
 * Runs `job` by hand for the admin `adminId` (`POST /api/admin/jobs/{name}/run`, the jobs page's "Run now") as
 * `runJob` does, aside from the request, then appends the audit log's `job.run` entry either way, its summary the
 * outcome, `succeeded` or `failed` (docs/decisions.md, Admin, "Audit log"; the run's own record keeps its error). An
 * entry that cannot be written is logged; the run's answer or error stands. Returns the run's answer. @throws what the
 * run throws, once its entry is appended (or its failure logged).
 */
export async function runJobByAdmin(
  services: Services,
  { job, adminId, now = new Date() }: { job: Job; adminId: string; now?: Date },
): Promise<JobRun> {
  let outcome = "failed";
  try {
    const ran = await services.requests.aside(() => runJob(job, services, now));
    outcome = "succeeded";
    return ran;
  } finally {
    await appendAdminLog(services.kv, {
      adminId,
      action: "job.run",
      targetKind: "job",
      targetId: job.name,
      summary: outcome,
    }).catch((error) => services.log.error("job run not audited", { job: job.name, outcome, error: String(error) }));
  }
}

/** What a cron of `job` does: nothing with `JOBS=off`, else one run; a failed run is logged, not thrown. */
export async function runScheduled(job: Job, services: Services): Promise<void> {
  if (!services.config.jobs) {
    services.log.debug("job skipped: JOBS=off", { job: job.name });
    return;
  }
  try {
    await runJob(job, services, new Date(), "schedule");
  } catch (error) {
    services.log.error("job failed", { job: job.name, error: String(error) });
  }
}
