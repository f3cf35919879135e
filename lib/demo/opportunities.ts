/**
 * Demo opportunities (`deno task seed`): published ones of every type posted by the admin and the
 * member, one of them written in Hindi (`HINDI_OPPORTUNITY`), three awaiting review from the demo students, and one
 * rejected. Added only when the store holds no opportunity yet, so seeding again adds nothing.
 */
import { reviewOpportunity, submitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { auditOps } from "@/lib/admin_log/admin_log.ts";
import { OpportunityCreateSchema } from "@/lib/opportunities/schema.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import type { User } from "@/lib/users/users.ts";

/** `YYYY-MM-DD` `days` from today (UTC). */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const PUBLISHED = [
  ["Smart Campus Hackathon", "hackathon", 12, 13, "IIT Madras, Chennai", "Tech Society, IIT Madras"],
  ["Women in STEM Research Grant", "grant", -5, 40, "Online", "Foundation for Science Education"],
  ["National Case Study Competition", "competition", 20, 22, "New Delhi", "Business Club of India"],
  ["Rural Health Ideathon", "ideathon", 3, 3, "Online", "Health Innovation Lab"],
  ["Open Source Summer Sprint", "hackathon", -2, 5, "Online", "FOSS United"],
  ["Student Startup Seed Grant", "grant", 30, 90, "Bengaluru", "Campus Founders Fund"],
] as const;

const PENDING = [
  ["College Robotics Challenge", "competition", 25, 26, "Pune", "Robotics Club"],
  ["Fintech Ideas Weekend", "ideathon", 9, 10, "Mumbai", "Fintech Circle"],
  ["AI for Farmers Hackathon", "hackathon", 45, 46, "Hyderabad", "AgriTech Forum"],
] as const;

/** A competition its organizer wrote in Hindi, for Hindi readers (kept as written). */
export const HINDI_OPPORTUNITY = {
  title: "हिंदी ब्लॉग लेखन प्रतियोगिता",
  type: "competition",
  location: "ऑनलाइन",
  organizer: "हिंदी लेखक मंच",
  description: "‘मेरे शहर में बदलाव’ विषय पर 800 से 1200 शब्दों का ब्लॉग लिखिए। किसी भी कॉलेज के छात्र हिस्सा ले " +
    "सकते हैं, अकेले या दो लोगों की टीम में। पहले तीन ब्लॉग को नकद इनाम मिलेगा और चुने गए 20 ब्लॉग हमारी वेबसाइट पर " +
    "छपेंगे। हर प्रतिभागी को ई-सर्टिफ़िकेट मिलेगा।",
  link: "https://example.com/hindi-blog-competition",
} as const;

/** Seeds the demo opportunities; returns a line saying what was added. */
export async function seedOpportunities(kv: Deno.Kv, posters: User[], students: User[]): Promise<string[]> {
  if ((await opportunityStore(kv)).model.slots.count > 0) return ["Opportunities: already there"];
  const input = ([title, type, start, end, location, organizer]: readonly [
    string,
    string,
    number,
    number,
    string,
    string,
  ]) =>
    OpportunityCreateSchema.parse({
      title,
      type,
      startDate: day(start),
      endDate: day(end),
      location,
      organizer,
      description: `${title}: open to students across India. Teams of up to four; certificates for every finisher.`,
      link: "https://example.com/opportunities",
    });
  for (const [i, item] of PUBLISHED.entries()) await submitOpportunity(kv, posters[i % posters.length], input(item));
  const hindi = OpportunityCreateSchema.parse({ ...HINDI_OPPORTUNITY, startDate: day(7), endDate: day(21) });
  await submitOpportunity(kv, posters[posters.length - 1], hindi);
  const pending = [];
  for (const [i, item] of PENDING.entries()) {
    pending.push(await submitOpportunity(kv, students[i % students.length], input(item)));
  }
  const rejected = await submitOpportunity(
    kv,
    students[0],
    input(["Buy Followers Contest", "competition", 5, 6, "Online", "Unknown"]),
  );
  const admin = posters.find((poster) => poster.role === "admin");
  await reviewOpportunity(kv, {
    audit: admin && auditOps({ adminId: admin.id, action: "opportunity.review", targetKind: "opportunity" }),
    id: rejected.id,
    review: {
      action: "reject",
      reason: "Buying followers is not an opportunity for students. Share a contest with a real brief and judges.",
    },
  });
  const published = PUBLISHED.length + 1;
  return [`Opportunities: ${published} published (1 in Hindi), ${pending.length} awaiting review, 1 rejected added`];
}
