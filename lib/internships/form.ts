/**
 * The internship form as a plain HTML submit sends it (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `POST /internships/new` and `POST /internships/{id}/edit` read its fields into the body `POST /api/internships` and
 * `PUT /api/internships/{id}` take, as the form's island sends it (a create the filled-in fields, an edit the changed
 * ones, a cleared optional field as `null`; a rupee amount and a link as people type them, docs/decisions.md, Islands,
 * "Input as people type it"), checked by the same schemas. Problems come back per field of the form (a question's
 * problem beside "How students apply", as the island shows it).
 */
import type { z } from "zod";
import { type FieldProblem, fieldProblems, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { rupeesOrText, withScheme } from "@/lib/browser/input_formats.ts";
import {
  type ApplyFormValues,
  applyValuesOf,
  DEADLINE_PASSED,
  deadlinePassed,
  EMPTY_FORM,
  type InternshipFormValues,
  QUESTION_SLOTS,
} from "@/lib/browser/internship_form.ts";
import {
  type InternshipCreate,
  InternshipCreateSchema,
  type InternshipUpdate,
  InternshipUpdateSchema,
} from "./schema.ts";

/** The form's text fields, by their `name`. */
const TEXT_FIELDS = Object.keys(EMPTY_FORM) as (keyof InternshipFormValues)[];

/** The `name` of the apply mode's radio buttons (the choice group's id in the island). */
export const APPLY_MODE_FIELD = "internship-applyMode";

/** What a submit sent: the text fields as typed, the apply mode as sent (`""` when absent) and the five slots. */
export interface PostedInternship {
  values: InternshipFormValues;
  mode: string;
  questions: ApplyFormValues["questions"];
}

/** The form as it stood before the person changed it: the listing's values (an edit). */
export interface InternshipFormStart {
  values: InternshipFormValues;
  apply: ApplyFormValues;
}

/**
 * The fields of a submitted form. A question slot keeps the id of the question it held in `before` (an edit); a slot
 * the form did not show (the apply mode was `link`) starts as required, as a new slot does.
 */
export function postedInternship(form: FormData, before: ApplyFormValues = applyValuesOf()): PostedInternship {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    values: Object.fromEntries(TEXT_FIELDS.map((field) => [field, text(field)])) as unknown as InternshipFormValues,
    mode: text(APPLY_MODE_FIELD),
    questions: QUESTION_SLOTS.map((slot) => ({
      id: before.questions[slot]?.id ?? "",
      text: text(`question${slot}`),
      required: form.has(`question${slot}`) ? form.has(`question${slot}Required`) : true,
    })),
  };
}

/** The apply values to show the form again with: the mode sent when it is one of the form's, else `link`. */
export function applyOf(posted: PostedInternship): ApplyFormValues {
  return { mode: posted.mode === "platform" ? "platform" : "link", questions: posted.questions };
}

/**
 * The JSON value of a text field: trimmed text or null, tags a list, the stipend a number (its text when not one, which
 * the schema refuses with the form's other problems).
 */
function jsonValue(field: keyof InternshipFormValues, raw: string): unknown {
  const value = raw.trim();
  if (field === "tags") return value.split(",").map((tag) => tag.trim()).filter(Boolean);
  if (value === "") return null;
  if (field === "stipend") return rupeesOrText(value);
  if (field === "link") return withScheme(value);
  return value;
}

/** The apply fields as the API takes them: the mode, and the filled-in questions (none for `link`). */
function applyBody(mode: string, questions: ApplyFormValues["questions"]) {
  const applyMode = mode === "" ? "link" : mode;
  return {
    applyMode,
    questions: applyMode === "link" ? [] : questions.filter((q) => q.text.trim() !== "").map((q) => ({
      ...q.id ? { id: q.id } : {},
      text: q.text.trim(),
      required: q.required,
    })),
  };
}

/** The request body: every filled-in field for a create, the changed fields for an edit (`start`). */
function bodyOf(posted: PostedInternship, start?: InternshipFormStart): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const value = jsonValue(field, posted.values[field]);
    if (start) {
      if (JSON.stringify(value) !== JSON.stringify(jsonValue(field, start.values[field]))) body[field] = value;
    } else if (value !== null && !(Array.isArray(value) && value.length === 0)) body[field] = value;
  }
  const now = applyBody(posted.mode, posted.questions);
  const before = start ? applyBody(start.apply.mode, start.apply.questions) : undefined;
  if (!before || now.applyMode !== before.applyMode) body.applyMode = now.applyMode;
  if (
    now.applyMode === "platform" && (!before || JSON.stringify(now.questions) !== JSON.stringify(before.questions))
  ) {
    body.questions = now.questions;
  }
  return body;
}

/** The outcome of checking a submitted form: the body to save, or a problem per field of the form. */
export type CheckedForm<T> = { ok: true; input: T } | { ok: false; problems: FieldProblem[] };

/**
 * `body` checked by `schema`, and its deadline by `deadlinePassed` against the one the form started with (`start`,
 * an edit's): the form refuses a day already past, which the API would save as a listing closed at once.
 */
function check<S extends z.ZodType>(
  schema: S,
  body: Record<string, unknown>,
  posted: PostedInternship,
  start: string,
): CheckedForm<z.infer<S>> {
  const parsed = schema.safeParse(body, PARSE_WITH_INPUT);
  const passed: FieldProblem[] = deadlinePassed(posted.values.deadline, start)
    ? [{ field: "deadline", message: DEADLINE_PASSED, messageKey: DEADLINE_PASSED }]
    : [];
  if (parsed.success && passed.length === 0) return { ok: true, input: parsed.data };
  const problems = [
    ...parsed.success
      ? []
      : fieldProblems(parsed.error.issues).map((problem) =>
        problem.field.startsWith("questions") ? { ...problem, field: "applyMode" } : problem
      ),
    ...passed,
  ];
  return { ok: false, problems: problems.filter((p, i) => problems.findIndex((q) => q.field === p.field) === i) };
}

/** A new listing's form as `POST /api/internships` checks it (`InternshipCreateSchema`), a past deadline refused. */
export function checkInternshipCreate(posted: PostedInternship): CheckedForm<InternshipCreate> {
  return check(InternshipCreateSchema, bodyOf(posted), posted, "");
}

/**
 * An edit's form against the listing's values (`start`) as `PUT /api/internships/{id}` checks it
 * (`InternshipUpdateSchema`): only the changed fields; an empty patch when nothing changed; a deadline moved to a day
 * already past refused.
 */
export function checkInternshipEdit(
  posted: PostedInternship,
  start: InternshipFormStart,
): CheckedForm<InternshipUpdate> {
  return check(InternshipUpdateSchema, bodyOf(posted, start), posted, start.values.deadline);
}
