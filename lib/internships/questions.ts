/**
 * Screening questions of a `platform` internship (docs/decisions.md, Applications, "Apply mode"): the server makes
 * their ids, so a poster's edit that keeps a question keeps its id (and the answers given to it), and a new question
 * gets a new one.
 */
import { InvalidInputError } from "@/lib/errors.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import {
  APPLY_LINK_NEEDED,
  type ApplyMode,
  type Internship,
  type InternshipUpdate,
  LINK_NEEDED,
  type Question,
  type QuestionInput,
  QUESTIONS_NEED_PLATFORM,
} from "./schema.ts";

/** A new question id: `q` and 8 random hex digits, not one of `taken`. */
function newId(taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `q${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * `inputs` as stored questions: an input whose `id` names one of `existing` keeps it, any other gets a new id;
 * `required` defaults to true.
 */
export function questionsWithIds(inputs: readonly QuestionInput[], existing: readonly Question[] = []): Question[] {
  const known = new Set(existing.map((question) => question.id));
  const taken = new Set<string>();
  return inputs.map(({ id, text, required }) => {
    const kept = id !== undefined && known.has(id) && !taken.has(id) ? id : newId(new Set([...known, ...taken]));
    taken.add(kept);
    return { id: kept, text, required: required ?? true };
  });
}

/**
 * The apply mode and questions of `record` after `patch`: a listing that takes applications on its own site has a
 * `link` and no questions (switching to `link` drops them); questions sent keep the ids of the questions they name.
 * @throws InvalidInputError `QUESTIONS_NEED_PLATFORM` for questions sent for a `link` listing, `APPLY_LINK_NEEDED` when a
 * `link` listing would be left without its link.
 */
export function applyFieldsAfter(
  record: Internship,
  patch: Pick<InternshipUpdate, "applyMode" | "link" | "questions">,
): { applyMode: ApplyMode; questions: Question[] } {
  const applyMode = patch.applyMode ?? record.applyMode ?? "link";
  if (applyMode === "link") {
    if (!(patch.link === undefined ? record.link : patch.link)) {
      throw new InvalidInputError(APPLY_LINK_NEEDED, [fieldProblem("link", LINK_NEEDED)]);
    }
    if ((patch.questions?.length ?? 0) > 0) {
      throw new InvalidInputError(QUESTIONS_NEED_PLATFORM, [{ field: "questions", message: QUESTIONS_NEED_PLATFORM }]);
    }
    return { applyMode, questions: [] };
  }
  const current = record.questions ?? [];
  return { applyMode, questions: patch.questions ? questionsWithIds(patch.questions, current) : current };
}
