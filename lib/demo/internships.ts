/**
 * Demo internships for `deno task seed`: 360 generated listings (fixed seed, so ids repeat and
 * a second run adds nothing) owned by the demo admin, the demo member and two recruiter
 * members created here (without passwords: they only own listings). Their names are names alone: a listing's page adds
 * the poster's role in the reader's language. Three more listings are written in Hindi, as a poster writing for Hindi
 * readers would (`seedHindiInternships`), so a Hindi visitor finds Hindi words besides the page's own.
 */
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { listInternships } from "@/lib/internships/internships.ts";
import { InternshipCreateSchema, InternshipQuerySchema } from "@/lib/internships/schema.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { createUser, getUserByEmail, type User } from "@/lib/users/users.ts";

/** The two recruiter members who own demo listings (the demo makes them managers of the organization it verifies). */
export const RECRUITERS = [
  { name: "Kavya Nair", email: "kavya.recruiter@demo.careers" },
  { name: "Imran Qureshi", email: "imran.recruiter@demo.careers" },
];

/** Number of demo internships. */
export const DEMO_INTERNSHIPS = 360;

/** Seeds the demo internships owned by `owners` plus the recruiters; returns how many were added. */
export async function seedInternships(kv: Deno.Kv, owners: User[]): Promise<number> {
  const recruiters: User[] = [];
  for (const r of RECRUITERS) {
    recruiters.push(
      await getUserByEmail(kv, r.email) ??
        await createUser(kv, { name: r.name, email: r.email, emailVerified: true, role: "member" }),
    );
  }
  const ownerIds = [...owners, ...recruiters].map((u) => u.id);
  return await importInternships(kv, generateInternships(DEMO_INTERNSHIPS, ownerIds, { seed: 2024, withHidden: true }));
}

/** `YYYY-MM-DD` `days` from today (UTC). */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The demo's listings written in Hindi (its poster's words, kept as written); the first title marks them seeded. */
export const HINDI_INTERNSHIPS = [
  {
    title: "हिंदी कंटेंट राइटिंग इंटर्न",
    hiringOrganization: "Kisan Connect",
    hiringManager: "सुनीता यादव",
    link: "https://careers.kisanconnect.in/jobs/hindi-content",
    description: "Kisan Connect किसानों को मौसम, मंडी के भाव और खेती की सलाह उनकी अपनी भाषा में देता है। हमें ऐसे " +
      "इंटर्न चाहिए जो आसान हिंदी में लेख, WhatsApp मैसेज और छोटे वीडियो की स्क्रिप्ट लिख सकें। आप हमारी कंटेंट टीम के " +
      "साथ काम करेंगे और हर हफ़्ते कम से कम पाँच लेख लिखेंगे। हिंदी टाइपिंग आनी चाहिए; खेती की थोड़ी जानकारी हो तो और " +
      "अच्छा। काम पूरा होने पर सर्टिफ़िकेट और सिफ़ारिश पत्र मिलेगा।",
    type: "remote",
    timing: "part_time",
    tags: ["content", "writing"],
    stipend: 6000,
    duration: "3 महीने",
    experience: "अनुभव ज़रूरी नहीं",
    location: "घर से (रिमोट)",
    deadline: day(45),
  },
  {
    title: "सोशल मीडिया मार्केटिंग इंटर्न (हिंदी)",
    hiringOrganization: "Tarang Media",
    hiringManager: "रोहित शेखावत",
    link: "https://careers.tarangmedia.in/jobs/social-media-hindi",
    description: "Tarang Media राजस्थान के लोकल ब्रांड के Instagram और YouTube चैनल चलाता है। इंटर्न के तौर पर " +
      "आप रील के आइडिया सोचेंगे, हिंदी में कैप्शन लिखेंगे और हर महीने की रिपोर्ट बनाने में हाथ बँटाएँगे। कॉलेज के साथ " +
      "कर सकते हैं: सोमवार से शुक्रवार दोपहर 2 से 6 बजे तक ऑफ़िस आना होगा। अच्छा काम करने वालों को नौकरी का ऑफ़र भी " +
      "मिल सकता है।",
    type: "onsite",
    timing: "part_time",
    tags: ["marketing", "social media"],
    stipend: 8000,
    duration: "2 महीने",
    experience: "कोई अनुभव नहीं चाहिए, बस Instagram की अच्छी समझ हो",
    location: "जयपुर, राजस्थान",
    deadline: day(50),
  },
  {
    title: "डेटा एंट्री और रिसर्च इंटर्न",
    hiringOrganization: "Pragati Foundation",
    hiringManager: null,
    link: "https://careers.pragatifoundation.in/jobs/survey-data",
    description: "Pragati Foundation उत्तर प्रदेश के सरकारी स्कूलों में पढ़ाई सुधारने पर काम करती है। हम 40 गाँवों के " +
      "स्कूलों से सर्वे का डेटा इकट्ठा कर रहे हैं। आपको यह डेटा Excel में डालना होगा, उसकी जाँच करनी होगी और हर " +
      "ज़िले पर एक छोटी रिपोर्ट हिंदी में लिखनी होगी। हफ़्ते में दो दिन लखनऊ ऑफ़िस आना होगा, बाक़ी दिन घर से काम।",
    type: "hybrid",
    timing: "full_time",
    tags: ["data", "excel", "research"],
    stipend: 5000,
    duration: "3 महीने",
    experience: "Excel की बेसिक जानकारी ज़रूरी है",
    location: "लखनऊ, उत्तर प्रदेश",
    deadline: day(60),
  },
];

/** Posts `HINDI_INTERNSHIPS` as `poster` unless they are there; returns a line saying what it did. */
export async function seedHindiInternships(kv: Deno.Kv, poster: User): Promise<string[]> {
  const [first] = HINDI_INTERNSHIPS;
  const found = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ limit: "100", search: first.title }),
    viewer: null,
  });
  if (found.internships.some((i) => i.title === first.title)) return ["Internships in Hindi: 0 added"];
  await createInternships(kv, poster, HINDI_INTERNSHIPS.map((item) => InternshipCreateSchema.parse(item)));
  return [`Internships in Hindi: ${HINDI_INTERNSHIPS.length} added`];
}
