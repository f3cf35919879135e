/**
 * zod schemas of the response bodies of resumes and applications (docs/api.md, Applications), for the OpenAPI
 * document only, as `resources.ts` holds the others: each `satisfies z.ZodType<T>` the type the domain answers with.
 */
import { z } from "zod";
import type { Resume } from "@/lib/resumes/resumes.ts";

const timestamp = z.string().describe("ISO 8601");

/** A person's resume (never its bytes, which `GET /api/me/resume/file` serves). */
export const ResumeSchema = z.strictObject({
  name: z.string().describe("The file's name as uploaded"),
  size: z.int().describe("In bytes"),
  uploadedAt: timestamp,
}) satisfies z.ZodType<Resume>;
