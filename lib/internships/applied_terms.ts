/**
 * The terms an application keeps of its listing (docs/decisions.md, Applications, "Terms applied under"): the monthly
 * stipend, the deadline, the location and the screening questions as they read when the application was made, and how
 * a listing's terms now differ from them. Pure, so the tracker's component compares them too.
 */
import { istDayOf } from "@/lib/dates.ts";
import type { ApplyMode, Question } from "./schema.ts";

/** A listing's terms as an applicant read them: stipend (rupees a month), deadline, location, questions. */
export interface AppliedTerms {
  stipend: number | null;
  /** `YYYY-MM-DD` or an ISO 8601 timestamp, as the listing stores it. */
  deadline: string | null;
  location: string | null;
  /** The screening questions as asked (none unless it took applications here). */
  questions: Question[];
}

/** One part of `AppliedTerms`, as `differingTerms` names them. */
export type TermsPart = "stipend" | "deadline" | "location" | "questions";

/** The terms of `listing` (a record or its view; older records have no apply mode or questions: none). */
export function appliedTermsOf(
  listing: {
    stipend: number | null;
    deadline: string | null;
    location: string | null;
    applyMode?: ApplyMode;
    questions?: Question[];
  },
): AppliedTerms {
  return {
    stipend: listing.stipend ?? null,
    deadline: listing.deadline ?? null,
    location: listing.location ?? null,
    questions: (listing.applyMode ?? "link") === "platform" ? listing.questions ?? [] : [],
  };
}

/** Whether `a` and `b` ask the same questions (id, text and whether required), in any order. */
export function sameQuestions(a: readonly Question[], b: readonly Question[]): boolean {
  const text = (questions: readonly Question[]) =>
    JSON.stringify(questions.map(({ id, text, required }) => [id, text, required]).sort());
  return text(a) === text(b);
}

/**
 * The parts of `now` that differ from `applied`, for better or worse, in `TermsPart` order: the stipend, the deadline
 * by its day in India, the location as written, the questions (`sameQuestions`).
 */
export function differingTerms(applied: AppliedTerms, now: AppliedTerms): TermsPart[] {
  const day = (deadline: string | null) => deadline === null ? null : istDayOf(deadline);
  const differs: Record<TermsPart, boolean> = {
    stipend: applied.stipend !== now.stipend,
    deadline: day(applied.deadline) !== day(now.deadline),
    location: (applied.location ?? "") !== (now.location ?? ""),
    questions: !sameQuestions(applied.questions, now.questions),
  };
  return (Object.keys(differs) as TermsPart[]).filter((part) => differs[part]);
}
