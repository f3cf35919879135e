/**
 * Browser-safe: a field problem as a person reads it (docs/decisions.md, Languages, "Field errors"): its catalogue
 * sentence in the page's language when the translator has it, else the English the server wrote.
 */
import type { Translate } from "./translator.ts";

/** A field problem as the API answers it (`FieldProblem`). */
export interface ProblemText {
  message: string;
  messageKey?: string;
  values?: Record<string, string | number>;
}

/** The sentence of `problem` in `t`'s language. */
export function fieldText(t: Translate, problem: ProblemText): string {
  return problem.messageKey && t.has(problem.messageKey)
    ? t.dynamic(problem.messageKey, problem.values)
    : problem.message;
}
