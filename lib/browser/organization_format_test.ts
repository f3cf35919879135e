import { assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { OrganizationStats } from "@/lib/organizations/organizations.ts";
import { trackRecord } from "./organization_format.ts";

const stats = (applications: number): OrganizationStats => ({
  openInternships: 1,
  internships: 1,
  applications,
  responseRate: null,
  medianDaysToFirstResponse: null,
  stipendReports: { yes: 0, partly: 0, no: 0 },
});

Deno.test("before its figures, a track record says what it waits for, true with applications too", () => {
  const [waiting] = trackRecord(translatorFor("en"), "Zeta", stats(2));
  assertEquals(
    waiting,
    "No track record yet: how often and how fast Zeta answers shows once it has 5 applications here at least 7 days " +
      "old, and whether interns were paid as listed once 3 of them say.",
  );
  assertEquals(trackRecord(translatorFor("en"), "Zeta", stats(0))[0], waiting, "the same before anyone applied");
  assertEquals(
    trackRecord(translatorFor("hi"), "Zeta", stats(2))[0],
    "अभी कोई ट्रैक रिकॉर्ड नहीं: Zeta कितनी बार और कितनी जल्दी जवाब देती है, यह तब दिखेगा जब यहाँ उसके 5 आवेदन कम से कम 7 " +
      "दिन पुराने होंगे; और इंटर्न को लिस्टिंग के मुताबिक़ स्टाइपेंड मिला या नहीं, यह तब जब 3 इंटर्न बताएँगे।",
  );
});
