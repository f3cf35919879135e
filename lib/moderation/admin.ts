/**
 * The admin moderation queue (docs/api.md, Trust; docs/decisions.md, Trust, "Moderation"): held and rejected
 * internships and opportunities with their reasons, held ones first, and the admin's decision on one.
 */
import { auditOps } from "@/lib/admin_log/admin_log.ts";
import { z } from "zod";
import { NotFoundError } from "@/lib/errors.ts";
import { TextSchema } from "@/lib/text.ts";
import type { Logger } from "@/lib/log.ts";
import type { User } from "@/lib/users/users.ts";
import { internshipsForAdmin, type InternshipView } from "@/lib/internships/internships.ts";
import { moderateInternship } from "@/lib/internships/writes.ts";
import { moderateOpportunity, opportunitiesForAdmin } from "@/lib/opportunities/opportunities.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";
import { MODERATION_DECISIONS, type ModerationView } from "./moderation.ts";
import { SeenUpdatedAtSchema } from "./seen_version.ts";
import { MODERATION_KINDS, type ModerationKind, moderationQueuePage } from "./queue.ts";
import { reopenRemoved } from "@/lib/reports/removals.ts";

/** The longest note an admin may write to the owner, in characters. */
export const NOTE_MAX = 1000;

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * The queue query: `kind` (`internships` or `opportunities`; both when absent), `status` (`held` or `rejected`; both,
 * held first, when absent), `limit` 1–100 (default 50), `offset`.
 */
export const ModerationQuerySchema = z.strictObject({
  kind: z.enum(MODERATION_KINDS).optional(),
  status: z.enum(["held", "rejected"]).optional(),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type ModerationQuery = z.infer<typeof ModerationQuerySchema>;

/**
 * The decision body: `approve` or `reject`, an optional note to the owner (plain text, at most 1,000), and optionally
 * the listing's `updatedAt` as the admin read it (`SeenUpdatedAtSchema`: 409 when it changed since).
 */
export const ModerationDecisionSchema = z.strictObject({
  decision: z.enum(MODERATION_DECISIONS),
  note: TextSchema.trim().max(NOTE_MAX).nullish().transform((note) => note || null),
  updatedAt: SeenUpdatedAtSchema,
});
export type ModerationDecisionBody = z.infer<typeof ModerationDecisionSchema>;

/** One listing of the queue: its kind, the listing as admins read it, its moderation state and when it was held. */
export type ModerationItem =
  | { kind: "internships"; listing: InternshipView; moderation: ModerationView; heldAt: string | null }
  | { kind: "opportunities"; listing: OpportunityView; moderation: ModerationView; heldAt: string | null };

/** A page of the queue. */
export interface ModerationPage {
  items: ModerationItem[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
  counts: { held: number; rejected: number };
}

/** One page of the queue (`moderationQueuePage`'s order), each entry with its listing. */
export async function moderationQueue(kv: Deno.Kv, query: ModerationQuery): Promise<ModerationPage> {
  const page = await moderationQueuePage(kv, query);
  const ids = (kind: ModerationKind) => page.entries.filter((entry) => entry.kind === kind).map((entry) => entry.id);
  const [internships, opportunities] = await Promise.all([
    internshipsForAdmin(kv, ids("internships")),
    opportunitiesForAdmin(kv, ids("opportunities")),
  ]);
  const items = page.entries.flatMap((entry): ModerationItem[] => {
    if (entry.kind === "internships") {
      const listing = internships.get(entry.id);
      return listing ? [{ kind: entry.kind, listing, moderation: listing.moderation, heldAt: entry.heldAt }] : [];
    }
    const listing = opportunities.get(entry.id);
    return listing ? [{ kind: entry.kind, listing, moderation: listing.moderation, heldAt: entry.heldAt }] : [];
  });
  return {
    items,
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total: page.total,
      hasMore: query.offset + page.entries.length < page.total,
    },
    counts: page.counts,
  };
}

/**
 * Applies `admin`'s decision to the listing `id` of `kind` (a path segment: anything but the two kinds is unknown), with
 * the audit log's entry (`moderation.decide`) in the same write; an approval of a rejected listing then reopens the
 * reports its reject resolved (`reopenRemoved`; docs/decisions.md, Trust, "Reports of what is removed"). The decision
 * has landed by then, so a reopening that fails (lost races) is logged and left to the `report-removals` job, and the
 * decision is answered all the same.
 * @throws NotFoundError for an unknown kind ("Not found") or listing ("Internship not found", "Opportunity not
 * found"); ConflictError (`listingChanged`) when `body.updatedAt` is given and the listing changed since; BusyError
 * after 30 s of lost races (nothing decided).
 */
export async function decideListing(
  { kv, log }: { kv: Deno.Kv; log: Logger },
  { kind, id, admin, body }: { kind: string; id: string; admin: User; body: ModerationDecisionBody },
): Promise<ModerationItem> {
  const targetKind = kind === "internships" ? "internship" : "opportunity";
  const audit = auditOps({ adminId: admin.id, action: "moderation.decide", targetKind, summary: body.decision });
  const reopen = async () => {
    if (body.decision !== "approve") return;
    try {
      await reopenRemoved(kv, targetKind, id);
    } catch (error) {
      log.warn("an approval left its reports to reopen to the job", { kind: targetKind, id, error: String(error) });
    }
  };
  if (kind === "internships") {
    const { internship, heldAt } = await moderateInternship(kv, { id, admin, ...body, audit });
    await reopen();
    return { kind, listing: internship, moderation: internship.moderation, heldAt };
  }
  if (kind === "opportunities") {
    const { opportunity, heldAt } = await moderateOpportunity(kv, { id, ...body, audit });
    await reopen();
    return { kind, listing: opportunity, moderation: opportunity.moderation, heldAt };
  }
  throw new NotFoundError();
}
