/**
 * zod schemas of the response bodies of resumes and applications (docs/api.md, Applications), for the OpenAPI
 * document only, as `resources.ts` holds the others: each `satisfies z.ZodType<T>` the type the domain answers with.
 */
import { z } from "zod";
import type { Resume } from "@/lib/resumes/resumes.ts";
import {
  APPLICATION_STATUSES,
  type ApplicationView,
  type MyApplication,
  type PosterApplication,
  type StatusCounts,
  STIPEND_PAID,
} from "@/lib/applications/schema.ts";
import { INTERNSHIP_TYPES } from "@/lib/internships/schema.ts";
import { InternshipSchema } from "./resources.ts";

const timestamp = z.string().describe("ISO 8601");

/** A person's resume (never its bytes, which `GET /api/me/resume/file` serves). */
export const ResumeSchema = z.strictObject({
  name: z.string().describe("The file's name as uploaded"),
  size: z.int().describe("In bytes"),
  uploadedAt: timestamp,
}) satisfies z.ZodType<Resume>;

const status = z.enum(APPLICATION_STATUSES);

/** An application as its applicant and its poster read it. */
export const ApplicationSchema = z.strictObject({
  id: z.string(),
  internshipId: z.string(),
  status,
  answers: z.array(z.strictObject({ questionId: z.string(), question: z.string(), answer: z.string() }))
    .describe("Each with the question's text as it was asked"),
  coverNote: z.string(),
  resume: z.strictObject({ name: z.string(), size: z.int() }).nullable()
    .describe("The resume copied when applying; null once the applicant deleted their account"),
  createdAt: timestamp,
  updatedAt: timestamp,
  history: z.array(z.strictObject({
    status,
    at: timestamp,
    by: z.enum(["applicant", "poster", "system"]),
    message: z.string().nullable().describe("The poster's (or the system's) message to the applicant"),
  })),
  stipendReport: z.strictObject({ paid: z.enum(STIPEND_PAID), at: timestamp }).nullable(),
}) satisfies z.ZodType<ApplicationView>;

/** An application with its internship, as the applicant lists it. */
export const MyApplicationSchema = z.strictObject({
  ...ApplicationSchema.shape,
  internship: InternshipSchema.nullable().describe("As the public reads it; null once deleted or hidden"),
  appliedTerms: z.strictObject({
    title: z.string().nullable().describe("Null for an application made before it was kept"),
    organization: z.string().nullable().describe(
      "The hiring organization as the listing named it; null for an application made before it was kept",
    ),
    stipend: z.int().nullable().describe("Monthly, in rupees"),
    deadline: z.string().nullable().describe("YYYY-MM-DD or ISO 8601"),
    location: z.string().nullable(),
    type: z.enum(INTERNSHIP_TYPES).nullable().optional().describe(
      "Remote, hybrid or on-site (null: not stated); absent for an application made before it was kept",
    ),
    questions: z.array(z.strictObject({ id: z.string(), text: z.string(), required: z.boolean() })),
  }).nullable().describe(
    "The internship's title, hiring organization, stipend, deadline, location, work type and screening questions " +
      "when you applied; null for an application made before they were kept",
  ),
  answerBy: timestamp.nullable().describe(
    "While it waits (applied, shortlisted): when it is answered at the latest, closed for you with a notice if the " +
      "organization has not answered (15 days after applications close: the deadline, a close, a deletion or an " +
      "admin's rejection; at most 30 days after applying without a deadline); " +
      "null otherwise",
  ),
}) satisfies z.ZodType<MyApplication>;

/** An application with its applicant, as the poster lists it (without the intern's stipend report). */
export const PosterApplicationSchema = z.strictObject({
  ...ApplicationSchema.omit({ stipendReport: true }).shape,
  applicant: z.strictObject({
    id: z.string().nullable(),
    name: z.string().nullable(),
    image: z.string().nullable(),
    collegeInstitute: z.string().nullable(),
    currentRole: z.string().nullable(),
    fieldOfStudy: z.string().nullable(),
    fieldInterests: z.array(z.string()),
    email: z.string().nullable().describe("Null until the application was shortlisted"),
    contactNumber: z.string().nullable().describe("Null until the application was shortlisted"),
  }).describe("As they were when they applied; id and name null once they deleted their account"),
  answerBy: timestamp.nullable().describe(
    "While it waits (applied, shortlisted): when it is closed for you, unanswered, at the latest, and the applicant " +
      "told; null otherwise",
  ),
}) satisfies z.ZodType<PosterApplication>;

/** How many applications of an internship are in each status. */
export const StatusCountsSchema = z.strictObject(
  Object.fromEntries(APPLICATION_STATUSES.map((name) => [name, z.int()])) as Record<
    typeof APPLICATION_STATUSES[number],
    z.ZodInt
  >,
) satisfies z.ZodType<StatusCounts>;
