/**
 * Demo saved listings (docs/decisions.md, Student space): Sara's application tracker holds four open internships at
 * four stages, with notes, and one opportunity, the one closing soonest first so its warning shows. Added only when
 * she has saved nothing, so seeding twice adds nothing.
 */
import { InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { openPublishedOpportunities } from "@/lib/opportunities/opportunities.ts";
import { savedRecordsOf, saveItem } from "@/lib/saved/saved.ts";
import type { SavedChange } from "@/lib/saved/schema.ts";
import type { User } from "@/lib/users/users.ts";

/** The stages and notes of the saved internships, in the order the open listings are taken (closing soonest first). */
const INTERNSHIP_STAGES: SavedChange[] = [
  { status: "saved", note: "Closes soon: finish the cover letter tonight." },
  { status: "applied", note: "Applied through the company site; follow up in a week." },
  { status: "interviewing", note: "Technical round on Friday: revise SQL joins." },
  { status: "rejected", note: "Feedback: more project work. Try again next cycle." },
];

/** Saves the demo tracker of `student` unless they saved something already; returns a line saying what it did. */
export async function seedSaved(kv: Deno.Kv, student: User): Promise<string[]> {
  if ((await savedRecordsOf(kv, student.id)).length > 0) return ["Saved listings: 0 added"];
  const { internships } = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ limit: "100" }),
    viewer: null,
  });
  const closingFirst = internships.toSorted((a, b) => (a.deadline ?? "9999").localeCompare(b.deadline ?? "9999"));
  const chosen = closingFirst.slice(0, INTERNSHIP_STAGES.length);
  for (const [i, internship] of chosen.entries()) {
    await saveItem(kv, { userId: student.id, kind: "internships", id: internship.id, change: INTERNSHIP_STAGES[i] });
  }
  const [opportunity] = await openPublishedOpportunities(kv);
  if (opportunity) {
    await saveItem(kv, {
      userId: student.id,
      kind: "opportunities",
      id: opportunity.id,
      change: { status: "saved", note: "Ask Rohan to team up." },
    });
  }
  return [`Saved listings: ${chosen.length + (opportunity ? 1 : 0)} added to Sara's tracker`];
}
