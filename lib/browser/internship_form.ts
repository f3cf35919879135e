/**
 * The internship form's starting values: empty for a new listing, the record's for an edit; and the apply mode with
 * its five question slots (docs/decisions.md, Applications, "Apply mode").
 */
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import { describeDeadline } from "./internship_format.ts";

/** The form's values, as typed. */
export interface InternshipFormValues {
  title: string;
  hiringOrganization: string;
  link: string;
  description: string;
  type: string;
  timing: string;
  location: string;
  stipend: string;
  duration: string;
  experience: string;
  deadline: string;
  hiringManager: string;
  tags: string;
}

/** Values of an empty form. */
export const EMPTY_FORM: InternshipFormValues = {
  title: "",
  hiringOrganization: "",
  link: "",
  description: "",
  type: "",
  timing: "",
  location: "",
  stipend: "",
  duration: "",
  experience: "",
  deadline: "",
  hiringManager: "",
  tags: "",
};

/** The form values of `internship`; a timestamp deadline shows as its date. */
export function formValuesOf(internship: InternshipView): InternshipFormValues {
  return {
    title: internship.title,
    hiringOrganization: internship.hiringOrganization,
    link: internship.link ?? "",
    description: internship.description ?? "",
    type: internship.type ?? "",
    timing: internship.timing ?? "",
    location: internship.location ?? "",
    stipend: internship.stipend === null ? "" : String(internship.stipend),
    duration: internship.duration ?? "",
    experience: internship.experience ?? "",
    deadline: internship.deadline?.slice(0, 10) ?? "",
    hiringManager: internship.hiringManager ?? "",
    tags: internship.tags.join(", "),
  };
}

/** The sentence beside a deadline that has passed. */
export const DEADLINE_PASSED: MessageKey = "internships.form.error.deadlinePassed";

/**
 * Whether the form's `deadline` as typed (`YYYY-MM-DD`) is a day before today in India (docs/decisions.md,
 * Internships, "A deadline already passed"): the form refuses it, as the listing would be closed the moment it is
 * saved. `start` is the deadline the form started with (an edit): a deadline left as it was is not judged.
 */
export function deadlinePassed(deadline: string, start = "", now = new Date()): boolean {
  const value = deadline.trim();
  return value !== "" && value !== start.trim() && describeDeadline(value, now)?.closed === true;
}

/** The indexes of the question slots: as many as a listing may have questions. */
export const QUESTION_SLOTS = [0, 1, 2, 3, 4] as const;

/** One question slot of the form: the question's id once saved (else ""), its text and whether it must be answered. */
export interface QuestionSlot {
  id: string;
  text: string;
  required: boolean;
}

/** The apply mode and the five question slots, the unused ones empty. */
export interface ApplyFormValues {
  mode: "link" | "platform";
  questions: QuestionSlot[];
}

/** The apply fields of `internship` (a new listing: `link`, empty slots). */
export function applyValuesOf(internship?: Pick<InternshipView, "applyMode" | "questions">): ApplyFormValues {
  const questions = internship?.questions ?? [];
  return {
    mode: internship?.applyMode ?? "link",
    questions: QUESTION_SLOTS.map((i) => questions[i] ?? { id: "", text: "", required: true }),
  };
}
