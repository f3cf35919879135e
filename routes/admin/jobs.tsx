/**
 * `/admin/jobs` (admins only, by `/admin`'s middleware): the background jobs (docs/decisions.md, Background work,
 * "Last runs"), a card each, in the registry's order: what the job does, when it runs (in IST) and next runs, when it
 * last ran and what it did, and its last failure when that is newer than its last success; above them, a note when
 * `JOBS=off` keeps every cron from running its job here. No island: each card's "Run now" is a plain form
 * (docs/decisions.md, Islands, "Forms work without JavaScript"): `POST` (`job`) runs the job as
 * `POST /api/admin/jobs/{name}/run` does (audit log `job.run`, with its outcome), then answers 303 to `?ran={name}&at={start}`, whose
 * page tells what that run did, or its error, from the run's record; a job name the registry lacks is 404.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { findJob, JOBS, runJobByAdmin } from "@/lib/jobs/registry.ts";
import { type JobStatus, jobStatuses, type LastFailure, type LastRun } from "@/lib/jobs/runs.ts";
import { scheduleWords } from "@/lib/jobs/schedule.ts";
import type { JobCounts } from "@/lib/jobs/job.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { formatTime } from "@/lib/dates.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

interface Data {
  jobs: JobStatus[];
  /** False with `JOBS=off`. */
  scheduled: boolean;
  /** The run a "Run now" redirect names: the job, and its record when still the latest (else null). */
  ran: { name: string; run: LastRun | null; failure: LastFailure | null } | null;
}

/** The redirect's query: a job of the registry and the start of its run. */
const ranSchema = z.object({
  ran: z.string().refine((name) => findJob(name) !== undefined),
  at: z.iso.datetime(),
});

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv, config } = ctx.state.services;
    const jobs = await jobStatuses(kv, { jobs: JOBS, scheduled: config.jobs, now: new Date() });
    const query = ranSchema.safeParse(Object.fromEntries(ctx.url.searchParams));
    let ran: Data["ran"] = null;
    if (query.success) {
      const { lastRun, lastFailure } = jobs.find((job) => job.name === query.data.ran)!;
      ran = {
        name: query.data.ran,
        run: lastRun?.startedAt === query.data.at ? lastRun : null,
        failure: lastFailure?.startedAt === query.data.at ? lastFailure : null,
      };
    }
    return ctx.render({ jobs, scheduled: config.jobs, ran });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services } = ctx.state;
    const job = findJob((await readFormFields(req, ["job"])).job);
    if (!job) throw new NotFoundError("Job not found");
    const now = new Date();
    try {
      await runJobByAdmin(services, { job, adminId: ctx.state.user.id, now });
    } catch (error) {
      // Recorded by the run and in the audit log, shown by the page it redirects to.
      services.log.error("job failed", { job: job.name, error: String(error) });
    }
    return seeOther(`/admin/jobs?ran=${encodeURIComponent(job.name)}&at=${encodeURIComponent(now.toISOString())}`);
  },
});

/** When a schedule runs, in words, in IST. */
function scheduleText(t: Translate, schedule: string): string {
  const words = scheduleWords(schedule);
  switch (words.every) {
    case "minute":
      return t("admin.jobs.every.minute");
    case "minutes":
      return t("admin.jobs.every.minutes", { count: words.minutes });
    case "hour":
      return t("admin.jobs.every.hour", { minute: words.minute });
    case "day":
      return t("admin.jobs.every.day", { time: formatTime(`2026-01-01T${words.time}:00+05:30`, t.lang) });
    case "other":
      return t("admin.jobs.every.other", { cron: words.cron });
  }
}

/** A run's end: when it started, how, and how long it took. */
function endedText(t: Translate, run: LastRun | LastFailure): string {
  return t("admin.jobs.ended", { time: t.dateTime(run.startedAt), trigger: run.trigger, ms: t.number(run.ms) });
}

/** A count's name in words (`admin.jobs.count.<name>`); a name no catalogue knows yet as it is. */
function countName(t: Translate, name: string): string {
  const key = `admin.jobs.count.${name}`;
  return t.has(key) ? t.dynamic(key) : name;
}

/** What a run counted, each count in words with its number. */
function Counts({ counts }: { counts: JobCounts }) {
  const t = useT();
  const entries = Object.entries(counts);
  if (entries.length === 0) return <>{t("admin.jobs.nothing")}</>;
  return (
    <ul class="flex flex-wrap gap-x-3 gap-y-1">
      {entries.map(([name, value]) => <li key={name}>{countName(t, name)}: {t.number(value)}</li>)}
    </ul>
  );
}

/** What the last "Run now" did, from its record: its counts, its error, or that a later run replaced it. */
function RanNotice({ ran }: { ran: NonNullable<Data["ran"]> }) {
  const t = useT();
  if (ran.failure) {
    return (
      <Notice kind="error" title={t("admin.jobs.failedTitle", { name: ran.name })}>
        <p>{endedText(t, ran.failure)}</p>
        <p class="mt-1 [overflow-wrap:anywhere]">{ran.failure.error}</p>
      </Notice>
    );
  }
  if (ran.run) {
    return (
      <Notice kind="success" title={t("admin.jobs.ranTitle", { name: ran.name })}>
        <p>{endedText(t, ran.run)}</p>
        <div class="mt-1">
          <Counts counts={ran.run.counts} />
        </div>
      </Notice>
    );
  }
  return <Notice kind="info">{t("admin.jobs.replaced", { name: ran.name })}</Notice>;
}

function JobCard({ job }: { job: JobStatus }) {
  const t = useT();
  const { lastRun, lastFailure } = job;
  const failed = lastFailure && (!lastRun || lastFailure.startedAt > lastRun.startedAt) ? lastFailure : null;
  const titleId = `job-${job.name}-title`;
  return (
    <li id={`job-${job.name}`} class="rounded-lg border border-slate-200 bg-white p-4">
      <div class="flex flex-wrap items-start justify-between gap-3">
        <h2 id={titleId} class="min-w-0 font-mono text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">
          {job.name}
        </h2>
        <form method="post" action="/admin/jobs">
          <input type="hidden" name="job" value={job.name} />
          <button type="submit" aria-label={t("admin.jobs.runNamed", { name: job.name })} class={SECONDARY_BUTTON}>
            {t("admin.jobs.run")}
          </button>
        </form>
      </div>
      <p class="mt-1 text-sm text-slate-700">{t.dynamic(`admin.jobs.about.${job.name}`)}</p>
      <dl class="mt-3 grid grid-cols-1 gap-x-4 text-sm text-slate-800 sm:grid-cols-[max-content_1fr] sm:gap-y-1">
        <dt class="font-medium text-slate-900">{t("admin.jobs.when")}</dt>
        <dd class="mb-1 sm:mb-0">{scheduleText(t, job.schedule)}</dd>
        <dt class="font-medium text-slate-900">{t("admin.jobs.next")}</dt>
        <dd class="mb-1 sm:mb-0">
          {job.nextRunAt ? <time datetime={job.nextRunAt}>{t.dateTime(job.nextRunAt)}</time> : t("admin.jobs.noNext")}
        </dd>
        <dt class="font-medium text-slate-900">{t("admin.jobs.lastRun")}</dt>
        <dd class="mb-1 sm:mb-0">{lastRun ? endedText(t, lastRun) : t("admin.jobs.never")}</dd>
        {lastRun && (
          <>
            <dt class="font-medium text-slate-900">{t("admin.jobs.did")}</dt>
            <dd>
              <Counts counts={lastRun.counts} />
            </dd>
          </>
        )}
      </dl>
      {failed && (
        <div class="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p class="font-semibold">{t("admin.jobs.lastFailure")}</p>
          <p>{endedText(t, failed)}</p>
          <p class="mt-1 [overflow-wrap:anywhere]">{failed.error}</p>
        </div>
      )}
    </li>
  );
}

export default define.page<Data>(function AdminJobsPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.jobs") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.jobs")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.jobs.lead")}</p>
        <p class="mt-1 text-sm text-slate-700">{t("admin.jobs.runHint")}</p>
      </div>
      {data.ran && <RanNotice ran={data.ran} />}
      {!data.scheduled && (
        <Notice kind="info" title={t("admin.jobs.offTitle")}>
          {t("admin.jobs.off", { setting: "JOBS=off" })}
        </Notice>
      )}
      <ul aria-label={t("admin.jobs.listLabel")} class="space-y-4">
        {data.jobs.map((job) => <JobCard key={job.name} job={job} />)}
      </ul>
    </section>
  );
});
