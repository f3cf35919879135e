/**
 * Field errors as data (docs/decisions.md, Errors and limits): zod issues turned into
 * `{field, message, messageKey, values}` whose message is a sentence a person can act on beside the field
 * ("Use at most 200 characters."), never a field path or zod's wording. The sentence is a catalogue message
 * (`messageKey`, with `values`), so a page shows it in its own language; `message` is its English, as the API
 * answers it (docs/decisions.md, Languages, "Field errors"). The API sends them as `fields` next to its `error`;
 * forms show each at its field. A missing value is told apart by the issue's data, not its wording: schemas whose
 * issues become field problems are parsed with `PARSE_WITH_INPUT`, so an `invalid_type` issue carries the `input` it
 * refused. A schema's own sentence (a refinement's) is written as its catalogue key (`"fields.endBeforeStart"`).
 */
import type { z } from "zod";
import { type MessageKey, translatorFor } from "@/lib/i18n/catalogue.ts";

/**
 * The parse options under which zod's issues keep the refused `input` (`schema.safeParse(value, PARSE_WITH_INPUT)`):
 * what tells a missing field ("Fill in this field.") from a wrong type. Error bodies never echo it.
 */
export const PARSE_WITH_INPUT = { reportInput: true } as const;

/**
 * A sentence of the catalogue with its values, or (`english`) a schema's own sentence written in English alone, which
 * every language shows as written.
 */
export type Sentence = { key: MessageKey; values?: Record<string, string | number> } | { english: string };

/**
 * One field's problem: `field` is the JSON name (nested names joined with `.`), `message` the sentence in English,
 * `messageKey` and `values` the same sentence in the catalogue (absent only where a module wrote its English alone).
 */
export interface FieldProblem {
  field: string;
  message: string;
  messageKey?: string;
  values?: Record<string, string | number>;
}

/** zod's own wording starts like this; a message of ours (a refinement's) is a catalogue key. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Expected|Unrecognized)\b/;

/** The sentence a schema wrote as its message (a catalogue key, or English), or null for zod's own wording. */
function ownSentence(message: string): Sentence | null {
  if (ZOD_WORDING.test(message)) return null;
  return translatorFor("en").has(message) ? { key: message as MessageKey } : { english: message };
}

/** A sentence for one zod issue, to be shown beside its field. */
export function issueSentence(issue: z.core.$ZodIssue): Sentence {
  const own = ownSentence(issue.message);
  switch (issue.code) {
    case "invalid_type": {
      // Without `PARSE_WITH_INPUT` the input is unknown: the type's sentence is then the safe one.
      if ("input" in issue && (issue.input === undefined || issue.input === null)) return { key: "fields.required" };
      if (issue.expected === "number" || issue.expected === "int") return { key: "fields.number" };
      if (issue.expected === "boolean") return { key: "fields.yesNo" };
      if (issue.expected === "array") return { key: "fields.fromList" };
      return { key: "fields.text" };
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return min <= 1 ? { key: "fields.required" } : { key: "fields.minChars", values: { min } };
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return min <= 1 ? { key: "fields.chooseOne" } : { key: "fields.chooseMin", values: { min } };
      }
      if (issue.origin === "date") return { key: "fields.laterDate" };
      return { key: issue.inclusive ? "fields.minNumber" : "fields.moreThan", values: { min } };
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return { key: "fields.maxChars", values: { max } };
      if (issue.origin === "array" || issue.origin === "set") return { key: "fields.maxItems", values: { max } };
      if (issue.origin === "date") return { key: "fields.earlierDate" };
      return { key: issue.inclusive ? "fields.maxNumber" : "fields.lessThan", values: { max } };
    }
    case "invalid_format": {
      if (own) return own;
      if (issue.format === "email") return { key: "fields.email" };
      if (issue.format === "url") return { key: "fields.url" };
      if (issue.format === "date") return { key: "fields.date" };
      return { key: "fields.format" };
    }
    case "not_multiple_of":
      return Number(issue.divisor) === 1
        ? { key: "fields.wholeNumber" }
        : { key: "fields.multipleOf", values: { divisor: Number(issue.divisor) } };
    case "invalid_value":
      return { key: "fields.option" };
    default:
      return own ?? { key: "fields.notAccepted" };
  }
}

/** The problem of `field` told by `sentence`, with its English. */
export function fieldProblem(field: string, sentence: Sentence): FieldProblem {
  if ("english" in sentence) return { field, message: sentence.english };
  const message = translatorFor("en")(sentence.key, sentence.values);
  return sentence.values
    ? { field, message, messageKey: sentence.key, values: sentence.values }
    : { field, message, messageKey: sentence.key };
}

/** The English of a zod issue's message: a schema's own sentence (a catalogue key) as its English text. */
export function issueMessage(message: string): string {
  const own = ownSentence(message);
  return own && "key" in own ? translatorFor("en")(own.key) : message;
}

/** The field an issue belongs to: its path's names (array indexes left out), joined with `.`. */
export function issueField(issue: z.core.$ZodIssue): string {
  return issue.path.filter((part) => typeof part === "string").join(".");
}

/**
 * One problem per field, in the order of `issues`: the first issue of each field. An issue of
 * the whole body (no field) is left out. `messages` gives a field its own sentence instead.
 */
export function fieldProblems(
  issues: readonly z.core.$ZodIssue[],
  messages: Record<string, Sentence> = {},
): FieldProblem[] {
  const problems = new Map<string, Sentence>();
  for (const issue of issues) {
    const field = issueField(issue);
    if (field !== "" && !problems.has(field)) problems.set(field, messages[field] ?? issueSentence(issue));
  }
  return [...problems].map(([field, sentence]) => fieldProblem(field, sentence));
}
