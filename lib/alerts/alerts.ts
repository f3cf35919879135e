/**
 * Search alerts (docs/decisions.md, Alerts; docs/api.md, Alerts): a person keeps up to 20 saved filters of the
 * internship or opportunity list, each e-mailed daily or weekly by the `alerts-digest` job when new listings match.
 *
 * Keys (owned by this module only):
 * - `["alerts", userId, id]` → `AlertRecord` (kept by user, so the digest meets each person's alerts together);
 * - `["alerts_count", userId]` → how many alerts the person has, checked with every create so the 20 limit holds.
 * An alert's `query` is the list's own query-string form and is validated as the list validates it.
 */
import { z } from "zod";
import { InvalidInputError, NotFoundError, ValidationError } from "@/lib/errors.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { InternshipQuerySchema } from "@/lib/internships/schema.ts";
import { OpportunityQuerySchema } from "@/lib/opportunities/schema.ts";
import type { Claimable } from "@/lib/jobs/lease.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** What an alert watches. */
export const ALERT_KINDS = ["internships", "opportunities"] as const;
export type AlertKind = typeof ALERT_KINDS[number];

/** How often an alert is e-mailed. */
export const ALERT_FREQUENCIES = ["daily", "weekly"] as const;
export type AlertFrequency = typeof ALERT_FREQUENCIES[number];

/** Most alerts one person may keep. */
export const MAX_ALERTS = 20;
/** The error of the 21st alert. */
export const TOO_MANY_ALERTS = REFUSALS.tooManyAlerts;
const NOT_FOUND = REFUSALS.alertNotFound;

/** The filters of an alert, as the list's query string has them (numbers for the stipends). */
export type AlertQuery = Record<string, string | number>;

/** An alert as answered. `lastSentAt` is when a digest last listed it (null: never). */
export interface Alert {
  id: string;
  kind: AlertKind;
  query: AlertQuery;
  frequency: AlertFrequency;
  isActive: boolean;
  lastSentAt: string | null;
  createdAt: string;
}

/** An alert as stored: also when the digest last looked at it (the start of its next window), and its lease. */
export interface AlertRecord extends Alert, Claimable {
  userId: string;
  /** When the digest last ran it, sent or not (null: never). */
  lastRunAt: string | null;
  /** Runs in a row whose digest of this alert failed (absent: none); at 3 its window is passed over. */
  failedRuns?: number;
}

const text = (max: number) => z.string().trim().max(max);
/** A stipend filter in rupees: a number, or digits as a query string carries it. */
const stipend = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/).transform(Number)], {
  error: "fields.rupees",
});

/** The filters an internship alert may hold: the list's, by their query-string names. */
const InternshipAlertQuery = z.strictObject({
  types: text(100).optional(),
  tags: text(1000).optional(),
  location: text(200).optional(),
  search: text(200).optional(),
  minStipend: stipend.optional(),
  maxStipend: stipend.optional(),
  verifiedOnly: z.enum(["true", "false"]).optional().transform((flag) => flag === "true" ? flag : undefined),
  paidOnly: z.enum(["true", "false"]).optional().transform((flag) => flag === "true" ? flag : undefined),
});

/** The filters an opportunity alert may hold. */
const OpportunityAlertQuery = z.strictObject({
  type: text(100).optional(),
  search: text(200).optional(),
});

/** `query` without empty values. */
function compact(query: Record<string, string | number | undefined>): AlertQuery {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== "")) as AlertQuery;
}

/** `query` as the list's query parameters (strings). */
export function queryParams(query: AlertQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
}

/**
 * `query` of an alert of `kind`, checked as the list checks its filters (`types`, `tags`, `location`, `search`,
 * `minStipend`, `maxStipend`, `verifiedOnly`, `paidOnly` for internships; `type`, `search` for opportunities), without
 * empty values (a flag that is `false` is left out).
 * @throws ValidationError with the issues (paths under `query`) for another field or a value the list would refuse.
 */
export function validateAlertQuery(kind: AlertKind, query: unknown): AlertQuery {
  const shape = kind === "internships" ? InternshipAlertQuery : OpportunityAlertQuery;
  const parsed = shape.safeParse(query, PARSE_WITH_INPUT);
  const issues = (error: z.ZodError) => error.issues.map((issue) => ({ ...issue, path: ["query", ...issue.path] }));
  if (!parsed.success) throw new ValidationError(issues(parsed.error));
  const result = compact(parsed.data);
  const list = kind === "internships" ? InternshipQuerySchema : OpportunityQuerySchema;
  const check = list.safeParse(queryParams(result), PARSE_WITH_INPUT);
  if (!check.success) throw new ValidationError(issues(check.error));
  return result;
}

/** The body of `POST /api/me/alerts`. */
export const AlertCreateSchema = z.strictObject({
  kind: z.enum(ALERT_KINDS),
  query: z.record(z.string(), z.unknown()).default({}),
  frequency: z.enum(ALERT_FREQUENCIES).default("daily"),
});
export type AlertCreate = z.infer<typeof AlertCreateSchema>;

/** The body of `PATCH /api/me/alerts/{id}`: any of `query`, `frequency`, `isActive`. */
export const AlertPatchSchema = z.strictObject({
  query: z.record(z.string(), z.unknown()).optional(),
  frequency: z.enum(ALERT_FREQUENCIES).optional(),
  isActive: z.boolean().optional(),
});
export type AlertPatch = z.infer<typeof AlertPatchSchema>;

const alertKey = (userId: string, id: string): Deno.KvKey => ["alerts", userId, id];
const countKey = (userId: string): Deno.KvKey => ["alerts_count", userId];

/** `record` as answered. */
export function alertView(record: AlertRecord): Alert {
  const { id, kind, query, frequency, isActive, lastSentAt, createdAt } = record;
  return { id, kind, query, frequency, isActive, lastSentAt, createdAt };
}

/**
 * Creates an alert of `userId` from `input` (its query validated as the list validates it). A write that loses the
 * race for the count to another of the person's writes reads again and tries again, so under the limit every
 * creation succeeds, however many run at once.
 * @throws ValidationError for a bad query; InvalidInputError `TOO_MANY_ALERTS` for a 21st; BusyError after 30 s of
 *   lost races (nothing written).
 */
export async function createAlert(
  kv: Deno.Kv,
  { userId, input, now = new Date() }: { userId: string; input: AlertCreate; now?: Date },
): Promise<Alert> {
  const query = validateAlertQuery(input.kind, input.query);
  let created: Alert | null = null;
  await retrying(
    async () => {
      const count = await kv.get<number>(countKey(userId));
      if ((count.value ?? 0) >= MAX_ALERTS) throw new InvalidInputError(TOO_MANY_ALERTS);
      const record: AlertRecord = {
        id: crypto.randomUUID(),
        userId,
        kind: input.kind,
        query,
        frequency: input.frequency,
        isActive: true,
        lastSentAt: null,
        lastRunAt: null,
        createdAt: now.toISOString(),
        lease: null,
      };
      const result = await kv.atomic().check(count)
        .set(alertKey(userId, record.id), record)
        .set(countKey(userId), (count.value ?? 0) + 1)
        .commit();
      if (result.ok) created = alertView(record);
      return result.ok;
    },
    RETRY_BUDGET_MS,
  );
  return created!;
}

/** `userId`'s alerts as stored, in key order. */
export async function alertRecordsOf(kv: Deno.Kv, userId: string): Promise<AlertRecord[]> {
  const records: AlertRecord[] = [];
  for await (const entry of kv.list<AlertRecord>({ prefix: ["alerts", userId] })) records.push(entry.value);
  return records;
}

/** `userId`'s alerts, newest first. */
export async function listAlerts(kv: Deno.Kv, userId: string): Promise<Alert[]> {
  return (await alertRecordsOf(kv, userId)).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map(alertView);
}

/** Those of `ids` that are `userId`'s alerts, in the order of `ids` (unknown and deleted ones left out). */
export async function alertsByIds(kv: Deno.Kv, userId: string, ids: readonly string[]): Promise<Alert[]> {
  const entries = await getManyChunked<AlertRecord>(kv, ids.map((id) => alertKey(userId, id)));
  return entries.flatMap(({ value }) => value ? [alertView(value)] : []);
}

/**
 * Changes `userId`'s alert `id`: `query` (validated for the alert's kind), `frequency`, `isActive`; a lost race reads
 * again and tries again.
 * @throws NotFoundError "Alert not found" for an unknown id or another person's; ValidationError for a bad query;
 *   BusyError after 30 s of lost races.
 */
export async function updateAlert(
  kv: Deno.Kv,
  { userId, id, patch }: { userId: string; id: string; patch: AlertPatch },
): Promise<Alert> {
  let changed: Alert | null = null;
  await retrying(
    async () => {
      const entry = await kv.get<AlertRecord>(alertKey(userId, id));
      if (!entry.value) throw new NotFoundError(NOT_FOUND);
      const next: AlertRecord = {
        ...entry.value,
        query: patch.query === undefined ? entry.value.query : validateAlertQuery(entry.value.kind, patch.query),
        frequency: patch.frequency ?? entry.value.frequency,
        isActive: patch.isActive ?? entry.value.isActive,
      };
      const ok = (await kv.atomic().check(entry).set(entry.key, next).commit()).ok;
      if (ok) changed = alertView(next);
      return ok;
    },
    RETRY_BUDGET_MS,
  );
  return changed!;
}

/**
 * Turns off those of `ids` that are `userId`'s alerts (the unsubscribe link), each in a checked write; unknown ids are
 * skipped. Returns how many were on.
 */
export async function pauseAlerts(kv: Deno.Kv, userId: string, ids: string[]): Promise<number> {
  let paused = 0;
  for (const id of ids) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await kv.get<AlertRecord>(alertKey(userId, id));
      if (!entry.value?.isActive) break;
      if ((await kv.atomic().check(entry).set(entry.key, { ...entry.value, isActive: false }).commit()).ok) {
        paused++;
        break;
      }
    }
  }
  return paused;
}

/**
 * Deletes `userId`'s alert `id`; a lost race reads again and tries again.
 * @throws NotFoundError "Alert not found" for an unknown id or another person's; BusyError after 30 s of lost races.
 */
export async function deleteAlert(kv: Deno.Kv, userId: string, id: string): Promise<void> {
  await retrying(
    async () => {
      const [entry, count] = await kv.getMany<[AlertRecord, number]>([alertKey(userId, id), countKey(userId)]);
      if (!entry.value) throw new NotFoundError(NOT_FOUND);
      const left = Math.max(0, (count.value ?? 1) - 1);
      const op = kv.atomic().check(entry, count).delete(entry.key);
      if (left === 0) op.delete(countKey(userId));
      else op.set(countKey(userId), left);
      return (await op.commit()).ok;
    },
    RETRY_BUDGET_MS,
  );
}

/** Deletes every alert of `userId` (account deletion); idempotent. */
export async function deleteAlertsOf(kv: Deno.Kv, userId: string): Promise<void> {
  const op = kv.atomic();
  for (const record of await alertRecordsOf(kv, userId)) op.delete(alertKey(userId, record.id));
  await op.delete(countKey(userId)).commit();
}
