/**
 * The terms an application keeps of its listing (docs/decisions.md, Applications, "Terms applied under"): the title,
 * the hiring organization, the monthly stipend, the deadline, the location, the work type and the screening questions
 * as they read when the application was made, and how a listing's terms now differ from them. Pure, so the tracker's
 * component compares them too.
 */
import { istDayOf } from "@/lib/dates.ts";
import type { ApplyMode, InternshipType, Question } from "./schema.ts";

/**
 * A listing's terms as an applicant read them: title, hiring organization (as the listing names it), stipend (rupees a
 * month), deadline, location, work type, questions. `title` and `organization` are null, and `type` absent, for an
 * application kept before they were: unknown, never "changed".
 */
export interface AppliedTerms {
  title: string | null;
  organization: string | null;
  stipend: number | null;
  /** `YYYY-MM-DD` or an ISO 8601 timestamp, as the listing stores it. */
  deadline: string | null;
  location: string | null;
  /** Remote, hybrid or on-site (null: not stated). */
  type?: InternshipType | null;
  /** The screening questions as asked (none unless it took applications here). */
  questions: Question[];
}

/** `AppliedTerms` as an application stores them: those kept before the title and organization were lack both. */
export type StoredAppliedTerms = Omit<AppliedTerms, "title" | "organization"> & {
  title?: string;
  organization?: string;
};

/** One part of `AppliedTerms`, as `differingTerms` names them. */
export type TermsPart = "title" | "organization" | "stipend" | "deadline" | "location" | "type" | "questions";

/** The terms of `listing` (a record or its view; older records have no apply mode or questions: none). */
export function appliedTermsOf(
  listing: {
    title: string;
    hiringOrganization: string;
    stipend: number | null;
    deadline: string | null;
    location: string | null;
    type: InternshipType | null;
    applyMode?: ApplyMode;
    questions?: Question[];
  },
): Required<StoredAppliedTerms> {
  return {
    title: listing.title,
    organization: listing.hiringOrganization,
    stipend: listing.stipend ?? null,
    deadline: listing.deadline ?? null,
    location: listing.location ?? null,
    type: listing.type ?? null,
    questions: (listing.applyMode ?? "link") === "platform" ? listing.questions ?? [] : [],
  };
}

/** `stored` as `AppliedTerms` (a title or organization not kept: null). */
export function keptTerms(stored: StoredAppliedTerms): AppliedTerms {
  return { ...stored, title: stored.title ?? null, organization: stored.organization ?? null };
}

/**
 * Whether names `a` and `b` (a title, an organization, a place; null: not stated) read the same to an applicant: equal
 * but for letter case, spacing and Unicode's compatibility forms, so "google  india" is "Google India" and a poster
 * fixing a capital tells nobody of a change.
 */
export function sameWords(a: string | null, b: string | null): boolean {
  const plain = (name: string | null) =>
    name === null ? null : name.normalize("NFKC").toLocaleLowerCase("en-IN").replace(/\s+/gu, " ").trim();
  return plain(a) === plain(b);
}

/** Whether `a` and `b` ask the same questions (id, text and whether required), in any order. */
export function sameQuestions(a: readonly Question[], b: readonly Question[]): boolean {
  const text = (questions: readonly Question[]) =>
    JSON.stringify(questions.map(({ id, text, required }) => [id, text, required]).sort());
  return text(a) === text(b);
}

/**
 * The parts of `now` that differ from `applied`, for better or worse, in `TermsPart` order: the title and the
 * organization by their words (`sameWords`; not when `applied` has none kept), the stipend, the deadline by its day in
 * India, the location by its words, the work type (not when `applied` has none kept), the questions (`sameQuestions`).
 */
export function differingTerms(applied: AppliedTerms, now: AppliedTerms): TermsPart[] {
  const day = (deadline: string | null) => deadline === null ? null : istDayOf(deadline);
  const differs: Record<TermsPart, boolean> = {
    title: applied.title !== null && !sameWords(applied.title, now.title),
    organization: applied.organization !== null && !sameWords(applied.organization, now.organization),
    stipend: applied.stipend !== now.stipend,
    deadline: day(applied.deadline) !== day(now.deadline),
    location: !sameWords(applied.location ?? "", now.location ?? ""),
    type: applied.type !== undefined && applied.type !== (now.type ?? null),
    questions: !sameQuestions(applied.questions, now.questions),
  };
  return (Object.keys(differs) as TermsPart[]).filter((part) => differs[part]);
}
