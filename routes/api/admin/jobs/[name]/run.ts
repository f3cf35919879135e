/**
 * `POST /api/admin/jobs/{name}/run`: an admin runs a scheduled job now; its `apiDocs` below are its description
 * (docs/api.md, Background work; docs/decisions.md, Background work).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { findJob, JOBS, runJobByAdmin } from "@/lib/jobs/registry.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { JobRunSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Background work",
  POST: {
    summary: "Run a job now",
    description: `Runs a scheduled job by hand, also with \`JOBS=off\`: ${
      JOBS.map((job) => `\`${job.name}\``).join(", ")
    }. ` +
      "Answers its name and what it did: `outbox` `{job, sent, retried, failed, skipped}`, `push-outbox` " +
      "`{job, delivered, retried, failed, skipped}` (push messages delivered, put back for a retry, failed for good, " +
      "not due or held by another process), `account-deletions` " +
      "`{job, resumed, swept, failed}` (first passes taken over, second passes run), `alerts-digest` " +
      "`{job, sent, alerts, skipped, failed}` (people e-mailed, alerts listed in those e-mails, people skipped: " +
      "unverified, suspended, claimed by another run or nothing new; people whose digest failed), " +
      "`deadline-reminders` `{job, sent, notified, items, skipped, failed}` (reminder e-mails queued, people " +
      "notified, items named in the reminders, people skipped, people whose reminder failed), " +
      "`reconcile-payments` `{job, checked, paid, failed}`, " +
      "`reconcile-refunds` `{job, listed, applied, known, left}` (processed refunds of the last 30 days listed; " +
      "applied to their purchase as no event had; ours or applied before, marked processed where they were not; " +
      "left for the next run), `organizations-link` `{job, linked, held, chunks}` (internships stored before " +
      "organizations linked to theirs, held on the way as asking applicants to pay, internship chunks and archive " +
      "blocks walked; all 0 once done or while another process runs it), `close-listings` " +
      "`{job, internships, opportunities}` " +
      "(how many listings it moved to the archive), `applications-timeout` " +
      "`{job, rejected, postponed, told, skipped, dayCounts}` (applications rejected, applications moved to a later " +
      "due time as their internship's deadline moved, applicants told, applications left for the next run, " +
      "poster-notice day counters " +
      "dropped; all 0 while another run holds its lease), `applications-ended` " +
      "`{job, marked, walked, moved, listings}` (listings closed or deleted before their ends were recorded, marked; " +
      "waiting applications walked; due times brought forward; listings whose walk ended), `listing-changes` " +
      "`{job, told, listings, waiting}` (applicants told of a change to a listing they applied to, listings whose " +
      "changes were all told, listings waiting for their day), `organizations-unlink` " +
      "`{job, organizations, listings, marked, applications}` (verified organizations done, strangers' listings " +
      "unlinked from them, listings kept and marked as their managers', applications no longer counted toward them), " +
      "`post-deletions` `{job, finished}` (post deletions that " +
      "had stopped midway, finished), `users-index` `{job, indexed}` (users stored before the admin lists' indexes, " +
      "indexed), `posts-admin-index` `{job, indexed}` (posts stored before the admin list's index, indexed), " +
      "`posts-author-index` `{job, indexed}` (posts stored before the index of posts by author, indexed), " +
      "`purchase-counts` `{job, written}` (purchases with gateway partial refunds written before the dashboard " +
      "counted them, written again with their counters moved), " +
      "`credit-notes-late` `{job, written}` (purchases whose tax invoice's refunds, made before credit notes were " +
      "issued, got theirs, late, or past GST's time limit why they have none: `creditNoteLapsed`), " +
      "`poster-hides` `{job, hidden}` (listings of suspended posters hidden by each hide's last run, its lease run " +
      "out: those the suspension's request left listed, stopped midway or posted meanwhile), " +
      "`demotion-closes` `{job, closed}` (listings of posters made users closed by each close's last run, 2 minutes " +
      "on: those the request that changed the role left open, stopped midway or posted meanwhile), " +
      "`manager-closes` `{job, closed}` (listings that only a suspended manager of their verified organization " +
      "answered, closed by each close's last run, 2 minutes on: those the suspension's request left open), " +
      "`comment-purges` `{job, removed}` (comments of suspended people removed after the suspension's first batch), " +
      "`report-targets-index` `{job, indexed}` (report summaries kept before the admin list's open and resolved " +
      "entries, indexed), `report-removals` `{job, resolved, reopened}` (reports of removed posts, comments and listings resolved after " +
      "the removal's request stopped; reports of rejected listings listed again reopened), `admin-log-index` `{job, indexed}` (audit log entries appended before the index of an " +
      "admin's entries by action, indexed), `moderation-counts` `{job, counted}` (moderation queue entries kept " +
      "before its counters, counted), `closed-owners-index` `{job, internships, opportunities}` (listings archived " +
      "before the archives' index by owner, indexed), `applications-sent-index` `{job, indexed}` (applications sent " +
      "before the index of a person's applications by when they were sent, indexed), " +
      "`applications-withdrawn-search` `{job, written}` (applications withdrawn while their search text still held " +
      "the applicant's profile, written again with their name alone), `report-summaries` `{job, written}` (report " +
      "summaries kept before they kept what resolved their target or the newest open reports that count toward a hold, " +
      "given it from their reports), `purchase-toolkit-index` `{job, indexed}` (purchases made before the index of a " +
      "buyer's purchases by toolkit, indexed), `removed-jobs` `{job, removed}` (the records of jobs removed from the " +
      "registry, their last run a week old, deleted), `notification-groups-index` `{job, indexed}` (reply " +
      "notification groups stored before the index of their holders, indexed). The run is recorded as the job's last " +
      "run, or its last failure (`GET /api/admin/jobs`), and in the audit log (`job.run`) with its outcome, `succeeded` or " +
      "`failed`, also when it fails.",
    access: ["admin"],
    responses: {
      200: { description: "What the run did: `{job, ...counts}`", schema: JobRunSchema },
      404: "Job not found",
    },
  },
});

export const handler = define.handlers({
  async POST(_req, ctx) {
    const job = findJob(ctx.params.name);
    if (!job) throw new NotFoundError("Job not found");
    assertSignedIn(ctx.state);
    return Response.json(await runJobByAdmin(ctx.state.services, { job, adminId: ctx.state.user.id }));
  },
});
