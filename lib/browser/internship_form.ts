/** The internship form's starting values: empty for a new listing, the record's for an edit. */
import type { InternshipView } from "@/lib/internships/internships.ts";

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
    link: internship.link,
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
