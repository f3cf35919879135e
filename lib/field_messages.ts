/**
 * Field errors as data (docs/decisions.md, Errors and limits): zod issues turned into
 * `{field, message}` pairs whose message is a sentence a person can act on beside the field
 * ("Use at most 200 characters."), never a field path or zod's wording. The API sends them as
 * `fields` next to its `error`; forms show each at its field. A missing value is told
 * apart by the issue's data, not its wording: schemas whose issues become field problems are
 * parsed with `PARSE_WITH_INPUT`, so an `invalid_type` issue carries the `input` it refused.
 */
import type { z } from "zod";

/**
 * The parse options under which zod's issues keep the refused `input` (`schema.safeParse(value, PARSE_WITH_INPUT)`):
 * what tells a missing field ("Fill in this field.") from a wrong type. Error bodies never echo it.
 */
export const PARSE_WITH_INPUT = { reportInput: true } as const;

/** One field's problem: `field` is the JSON name (nested names joined with `.`), `message` a sentence. */
export interface FieldProblem {
  field: string;
  message: string;
}

const NUMBER = new Intl.NumberFormat("en-IN");

function count(n: number, one: string, many = `${one}s`): string {
  return `${NUMBER.format(n)} ${n === 1 ? one : many}`;
}

/** zod's own wording starts like this; a message of ours (a refinement's) is kept as written. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Expected|Unrecognized)\b/;

/** A sentence for one zod issue, to be shown beside its field. */
export function issueSentence(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type": {
      // Without `PARSE_WITH_INPUT` the input is unknown: the type's sentence is then the safe one.
      if ("input" in issue && (issue.input === undefined || issue.input === null)) return "Fill in this field.";
      if (issue.expected === "number" || issue.expected === "int") return "Enter a number.";
      if (issue.expected === "boolean") return "Choose yes or no.";
      if (issue.expected === "array") return "Choose from the list.";
      return "Enter text here.";
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return min <= 1 ? "Fill in this field." : `Use at least ${count(min, "character")}.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return min <= 1 ? "Choose at least one." : `Choose at least ${NUMBER.format(min)}.`;
      }
      if (issue.origin === "date") return "Enter a later date.";
      return issue.inclusive ? `Enter ${NUMBER.format(min)} or more.` : `Enter more than ${NUMBER.format(min)}.`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `Use at most ${count(max, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set") return `Use at most ${count(max, "item")}.`;
      if (issue.origin === "date") return "Enter an earlier date.";
      return issue.inclusive ? `Enter ${NUMBER.format(max)} or less.` : `Enter less than ${NUMBER.format(max)}.`;
    }
    case "invalid_format": {
      if (!ZOD_WORDING.test(issue.message)) return issue.message;
      if (issue.format === "email") return "Enter a valid e-mail address, like name@example.com.";
      if (issue.format === "url") return "Enter a full web address starting with https://.";
      if (issue.format === "date") return "Enter a date as YYYY-MM-DD, e.g. 2026-03-31.";
      return "This is not in the expected form.";
    }
    case "not_multiple_of":
      return Number(issue.divisor) === 1 ? "Enter a whole number." : `Enter a multiple of ${issue.divisor}.`;
    case "invalid_value":
      return "Choose one of the offered options.";
    default:
      return ZOD_WORDING.test(issue.message) ? "This value is not accepted." : issue.message;
  }
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
  messages: Record<string, string> = {},
): FieldProblem[] {
  const problems = new Map<string, string>();
  for (const issue of issues) {
    const field = issueField(issue);
    if (field !== "" && !problems.has(field)) problems.set(field, messages[field] ?? issueSentence(issue));
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}
