/**
 * The demo's applications (`deno task seed`; docs/decisions.md, Applications): the demo member posts an internship
 * that takes applications here, with two screening questions; Sara and Rohan each upload a one-page resume and apply;
 * the member shortlists Sara with a message, so her tracker, her bell and the member's applicants page all have
 * something to show. Idempotent: nothing is added when the listing exists.
 */
import { listInternships } from "@/lib/internships/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { InternshipCreateSchema, InternshipQuerySchema } from "@/lib/internships/schema.ts";
import { uploadResume } from "@/lib/resumes/resumes.ts";
import { applyTo, changeStatus } from "@/lib/applications/applications.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import type { User } from "@/lib/users/users.ts";

/** The title of the demo's internship that takes applications here. */
export const PLATFORM_TITLE = "Product Design Intern (apply here)";

/** A small, valid one-page PDF naming `name`, for a demo resume. */
function resumePdf(name: string): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n% Resume of ${name}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

/** Seeds the applications of `poster`'s platform listing from `students` (the first is shortlisted); lines said. */
export async function seedApplications(
  kv: Deno.Kv,
  { poster, students, appUrl }: { poster: User; students: User[]; appUrl: string },
): Promise<string[]> {
  const mine = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ limit: "100", search: PLATFORM_TITLE }),
    viewer: null,
  });
  if (mine.internships.some((i) => i.title === PLATFORM_TITLE)) return ["Applications: 0 added"];
  const [listing] = await createInternships(kv, poster, [InternshipCreateSchema.parse({
    title: PLATFORM_TITLE,
    hiringOrganization: "Zeta Fintech",
    link: "https://zetafintech.in/careers/product-design-intern",
    description: "Design flows for our savings app with the product team in Bengaluru. Apply here with your resume.",
    stipend: 20000,
    type: "hybrid",
    location: "Bengaluru, Karnataka",
    tags: ["design", "figma"],
    applyMode: "platform",
    questions: [
      { text: "Which app's onboarding do you admire, and why?", required: true },
      { text: "Link to your portfolio", required: false },
    ],
  })]);
  const files = new KvObjectStore(kv);
  const applications = [];
  for (const student of students) {
    await uploadResume(kv, files, { userId: student.id, name: `${student.name}.pdf`, bytes: resumePdf(student.name) });
    applications.push(
      await applyTo(kv, {
        internshipId: listing.id,
        applicant: student,
        body: {
          answers: [{ questionId: listing.questions[0].id, answer: "Zerodha's: it asks one thing at a time." }],
          coverNote: "I have designed two student apps and would love to learn from your team.",
        },
      }),
    );
  }
  await changeStatus(kv, {
    id: applications[0].id,
    actor: poster,
    change: { status: "shortlisted", message: "Loved your answer. Expect a call this week." },
    appUrl,
  });
  return [`Applications: "${PLATFORM_TITLE}" with ${applications.length}, one shortlisted`];
}
