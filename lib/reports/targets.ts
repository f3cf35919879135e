/**
 * What can be reported, kind by kind (docs/decisions.md, Trust, "Reports"): whether a target exists for the person
 * reporting it, its title and page, its owner, and what `hide` and `delete` do to it.
 */
import { BusyError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import type { User } from "@/lib/users/users.ts";
import { getInternship } from "@/lib/internships/internships.ts";
import { intakeKey, removedPerIntake } from "@/lib/internships/intake.ts";
import {
  deleteInternship,
  holdReportedInternship,
  moderateInternship,
  releaseReportedInternship,
} from "@/lib/internships/writes.ts";
import {
  getOpportunity,
  holdReportedOpportunity,
  moderateOpportunity,
  releaseReportedOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { removalMarkKey } from "@/lib/opportunities/removal_mark.ts";
import { removeVerification } from "@/lib/organizations/organizations.ts";
import { getOrganization } from "@/lib/organizations/store.ts";
import { deletePost, getPostForAdmin, readablePost, updatePost } from "@/lib/ungatekeep/posts.ts";
import { getComment } from "@/lib/comments/store.ts";
import { commentPath, removeComment } from "@/lib/comments/comments.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { ReportKind, ResolveAction } from "./schema.ts";
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import type { OnLostRace } from "@/lib/kv/retry.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** A reported thing as reports show it. */
export interface Target {
  kind: ReportKind;
  id: string;
  /**
   * Its title in English ("Data Intern at Acme", "Comment: “…”"), as report summaries keep it beside `words` (older
   * summaries have only this); readers get `targetTitle` in their language.
   */
  title: string;
  /** What the title is made of: the thing's own title (a comment's excerpt), and an internship's organization. */
  words: { name: string; organization?: string };
  /** Its page (a same-origin path), or null when it has none any more. */
  url: string | null;
  /** Who posted it (told when it is hidden or deleted), or null. */
  ownerId: string | null;
  /** Whether reports can hold it (a listing). */
  holdable: boolean;
  /**
   * The records it was read from that the report's write checks, so that nothing is reported of what was removed
   * meanwhile (docs/decisions.md, Trust, "Reports of what is removed"): a post's, a comment's and its post's, an
   * internship's intake entry (`intakeKey`), an opportunity's removal mark (`removalMarkKey`), as the person reporting
   * read them; none for other kinds, or when admins read it.
   */
  records: Deno.AtomicCheck[];
}

/** `text` cut to `max` characters with an ellipsis. */
function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `target`'s title in the language of `t`, as the report form names what is reported. */
export function targetTitle(target: Pick<Target, "kind" | "words">, t: Translate): string {
  const { name, organization } = target.words;
  if (target.kind === "comment") return t("trust.reportPage.targetComment", { excerpt: name });
  if (organization) return t("trust.reportPage.targetInternship", { title: name, organization });
  return name;
}

/** The English of the titles reports keep and admins list. */
const english = translatorFor("en");

/**
 * The target `kind`/`id` as `viewer` may see it (to report it), or as admins see it when `viewer` is null; its `title`
 * is `targetTitle` in English.
 * @throws NotFoundError "Not found" when it does not exist or is hidden from `viewer`.
 */
export async function findTarget(kv: Deno.Kv, kind: ReportKind, id: string, viewer: User | null): Promise<Target> {
  const target = await locateTarget(kv, kind, id, viewer);
  return { ...target, title: targetTitle(target, english) };
}

/** `findTarget` without the title. */
async function locateTarget(
  kv: Deno.Kv,
  kind: ReportKind,
  id: string,
  viewer: User | null,
): Promise<Omit<Target, "title">> {
  try {
    switch (kind) {
      case "internship": {
        // Its intake entry is written by every write of it and read from KV, not the read model, which may lag.
        const [internship, intake] = await Promise.all([
          getInternship(kv, { id, viewer: viewer ?? ADMIN, audience: "owner" }),
          viewer ? kv.get<string>(intakeKey(id)) : null,
        ]);
        if (intake && removedPerIntake(intake.value)) break;
        return {
          kind,
          id,
          words: { name: internship.title, organization: internship.hiringOrganization },
          url: `/internships/${id}`,
          ownerId: internship.userId,
          holdable: true,
          records: intake ? [intake] : [],
        };
      }
      case "opportunity": {
        // Its removal mark is written by the write that rejects it and read from KV, not the read model, which may lag.
        const [opportunity, removed] = await Promise.all([
          getOpportunity(kv, id, viewer ?? ADMIN),
          viewer ? kv.get<boolean>(removalMarkKey(id)) : null,
        ]);
        if (removed?.value) break;
        return {
          kind,
          id,
          words: { name: opportunity.title },
          url: `/opportunities/${id}`,
          ownerId: opportunity.userId,
          holdable: true,
          records: removed ? [removed] : [],
        };
      }
      case "organization": {
        const organization = (await getOrganization(kv, id)).value;
        if (!organization) break;
        return {
          kind,
          id,
          words: { name: organization.name },
          url: `/organizations/${organization.slug}`,
          ownerId: null,
          holdable: false,
          records: [],
        };
      }
      case "post": {
        const entry = viewer ? await readablePost(kv, { id, viewer }) : null;
        const post = entry?.value ?? await getPostForAdmin(kv, id);
        return {
          kind,
          id,
          words: { name: post.title },
          url: `/ungatekeep/${id}`,
          ownerId: post.userId,
          holdable: false,
          records: entry ? [entry] : [],
        };
      }
      case "comment": {
        const entry = await getComment(kv, id);
        const comment = entry?.value;
        if (!comment || comment.isDeleted) break;
        // A comment is seen under its post: one whose post is gone (its comments going after it) is not reported.
        const post = viewer ? await readablePost(kv, { id: comment.postId, viewer }) : null;
        return {
          kind,
          id,
          words: { name: excerpt(comment.content) },
          url: commentPath(comment),
          ownerId: comment.userId,
          holdable: false,
          records: post ? [entry, post] : [],
        };
      }
    }
  } catch (error) {
    if (!(error instanceof NotFoundError) && !(error instanceof Error && error.name === "UnauthenticatedError")) {
      throw error;
    }
  }
  throw new NotFoundError();
}

/**
 * Who reads a target as admins do (the reads of `findTarget` without a viewer): a verified admin, as `isAdmin` asks, so
 * a listing reports hold (withheld from anyone else) is found too.
 */
const ADMIN = { id: "", role: "admin", emailVerified: true } as User;

/**
 * Holds a listing whose reports reached the threshold at `since` (ISO; docs/decisions.md, Trust, "Reports"), unless an
 * admin decided on it since; nothing for other kinds. Idempotent.
 */
export async function holdTarget(kv: Deno.Kv, kind: ReportKind, id: string, since: string): Promise<void> {
  if (kind === "internship") await holdReportedInternship(kv, id, since);
  if (kind === "opportunity") await holdReportedOpportunity(kv, id, since);
}

/**
 * Releases a listing held by reports an admin dismissed (docs/decisions.md, Trust, "Reports"): listed again unless the
 * never-pay rule holds it too; nothing for other kinds, an unknown listing or one reports do not hold. Idempotent.
 * `joined` is the listing write's `audit` hook and what it does on a lost race. Returns whether the listing stays held
 * (for another reason).
 * @throws BusyError after 30 s of lost races; RaceLost for a lost race with `onLostRace` "give-up".
 */
async function releaseTarget(
  kv: Deno.Kv,
  { kind, id, joined }: { kind: ReportKind; id: string; joined: { audit?: AuditHook; onLostRace?: OnLostRace } },
): Promise<boolean> {
  if (kind === "internship") return await releaseReportedInternship(kv, id, joined);
  if (kind === "opportunity") return await releaseReportedOpportunity(kv, id, joined);
  return false;
}

/**
 * Does `action` to the target as `admin`: `hide` rejects a listing (moderation), unpublishes a post, deletes a comment
 * and takes an organization's verified badge away; `delete` soft-deletes an internship, deletes a post or a comment,
 * and rejects an opportunity (which has no deletion). `dismiss` releases a listing the reports held (listed again
 * unless the never-pay rule holds it too) and changes nothing else. A target already gone counts as done. Returns
 * whether a dismissed listing stays held (the never-pay rule holds it: only its own moderation decision releases it).
 * @throws InvalidInputError for `delete` of an organization (one is never deleted); BusyError after lost races;
 *   RaceLost for a lost race of the write `also` joins.
 */
export async function actOn(
  { kv, files, log }: { kv: Deno.Kv; files: ObjectStore; log: Logger },
  { kind, id, action, admin, note, also }: {
    kind: ReportKind;
    id: string;
    action: ResolveAction;
    admin: User;
    note: string | null;
    /**
     * Mutations (and checks) to join to the action's own write (the one that changes the target; a post's deletion's
     * first): the write gives up on a lost race (`RaceLost`) so the caller reads its checks again. Not called when the
     * action writes nothing (a target gone or already so, a dismissal of what reports do not hold).
     */
    also?: AuditHook;
  },
): Promise<boolean> {
  const joined = also ? { audit: also, onLostRace: "give-up" as const } : {};
  try {
    if (action === "dismiss") return await releaseTarget(kv, { kind, id, joined });
    switch (kind) {
      case "internship":
        if (action === "hide") {
          await moderateInternship(kv, {
            id,
            admin,
            decision: "reject",
            note,
            notify: false,
            removedBy: null,
            ...joined,
          });
        } else await deleteInternship(kv, { id, actor: admin, ...joined, reportsResolved: true });
        return false;
      case "opportunity":
        await moderateOpportunity(kv, { id, decision: "reject", note, notify: false, removedBy: null, ...joined });
        return false;
      case "organization":
        if (action === "delete") {
          throw new InvalidInputError(REFUSALS.organizationNotDeleted);
        }
        await removeVerification(kv, id, joined);
        return false;
      case "post":
        if (action === "hide") await updatePost(kv, { files, id, patch: { isPublished: false }, ...joined });
        else await deletePost(kv, { files, log, id, ...joined, reportsResolved: true });
        return false;
      case "comment":
        await removeComment(kv, id, admin, { ...joined, reportsResolved: true });
        return false;
    }
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    if (error instanceof Error && error.message.includes("lost too many races")) throw new BusyError(error.message);
    throw error;
  }
}
