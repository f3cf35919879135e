import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { removedNotification, resolvedNotification } from "@/lib/reports/notices.ts";
import { moderatedNotification } from "@/lib/moderation/notices.ts";
import { notificationWords } from "./words.ts";

const [en, hi] = [translatorFor("en"), translatorFor("hi")];
const words = (input: ReturnType<typeof removedNotification>, t = hi) =>
  notificationWords({ title: "", body: "", message: input.message }, t);

Deno.test("report notices in both languages: a comment is never quoted to its reporter, a note only when written", () => {
  const resolved = resolvedNotification({
    userId: "u",
    kind: "comment",
    words: { name: "Buy followers!" },
    action: "hide",
    note: null,
    url: "/ungatekeep/p#comment-c",
  });
  assert(!JSON.stringify(resolved).includes("Buy followers"), "a comment is not quoted to its reporter, even unshown");
  assertEquals(words(resolved, en), {
    title: "Your report was reviewed",
    body: "Thank you for reporting. An admin looked at the comment you reported and hid it: students no longer see it.",
  });
  assertEquals(words(resolved), {
    title: "आपकी रिपोर्ट देख ली गई",
    body: "रिपोर्ट करने के लिए धन्यवाद। एक एडमिन ने आपका रिपोर्ट किया कमेंट देखा और उसे छिपा दिया: अब छात्र उसे नहीं देखेंगे।",
  });
  const unverified = resolvedNotification({
    userId: "u",
    kind: "organization",
    words: { name: "Fake Corp" },
    action: "hide",
    note: null,
    url: "/organizations/fake-corp",
  });
  assertEquals(
    words(unverified, en).body,
    "Thank you for reporting. An admin looked at “Fake Corp” and took away its verified badge: its page stays up, but " +
      "no longer shows it as verified.",
  );
  assertEquals(
    words(unverified).body,
    "रिपोर्ट करने के लिए धन्यवाद। एक एडमिन ने “Fake Corp” देखा और उसका वेरिफ़ाइड बैज हटा दिया: उसका पेज बना रहेगा, पर अब वह " +
      "वेरिफ़ाइड नहीं दिखेगी।",
  );
  const removed = removedNotification({
    userId: "u",
    kind: "internship",
    words: { name: "Data Intern" },
    action: "delete",
    note: "Fake",
  });
  assertEquals(words(removed, en), {
    title: "Your internship was removed",
    body: "After reports from students, an admin removed “Data Intern”. The admin wrote: Fake",
  });
  assertEquals(words(removed), {
    title: "आपकी इंटर्नशिप हटा दी गई",
    body: "छात्रों की रिपोर्ट के बाद एक एडमिन ने “Data Intern” को हटा दिया। एडमिन ने लिखा: Fake",
  });
});

Deno.test("a reported internship is worded with its organization in the reader's language; old notices stay readable", () => {
  const listing = { name: "Product Design Intern", organization: "Zeta Fintech" };
  const dismissed = resolvedNotification({
    userId: "u",
    kind: "internship",
    words: listing,
    action: "dismiss",
    note: null,
    url: "/internships/i",
  });
  assertEquals(
    words(dismissed, en).body,
    "Thank you for reporting. An admin looked at “Product Design Intern at Zeta Fintech” and found nothing against our " +
      "rules, so it stays up.",
  );
  assertEquals(
    words(dismissed).body,
    "रिपोर्ट करने के लिए धन्यवाद। एक एडमिन ने “Zeta Fintech में Product Design Intern” देखा और उसमें हमारे नियमों के ख़िलाफ़ " +
      "कुछ नहीं मिला, इसलिए वह बना रहेगा।",
  );
  const hidden = removedNotification({ userId: "u", kind: "internship", words: listing, action: "hide", note: null });
  assertEquals(
    words(hidden).body,
    "छात्रों की रिपोर्ट के बाद एक एडमिन ने “Zeta Fintech में Product Design Intern” को छिपा दिया।",
  );
  const comment = removedNotification({
    userId: "u",
    kind: "comment",
    words: { name: "Buy followers!" },
    action: "hide",
    note: null,
  });
  assertEquals(words(comment, en).body, "After reports from students, an admin hid your comment “Buy followers!”.");
  // A notice stored before its title was kept in parts (values without `what`) reads as it was stored.
  const stored = {
    title: "Your report was reviewed",
    body: "Thank you for reporting. An admin looked at “Product Design Intern at Zeta Fintech” and removed it.",
    message: {
      title: { key: "notifications.text.reportResolved.title" },
      body: {
        key: "notifications.text.reportResolved.body",
        values: {
          action: "delete",
          title: "Product Design Intern at Zeta Fintech",
          quoted: "yes",
          hasNote: "no",
          note: "",
        },
      },
    },
  };
  assertEquals(notificationWords(stored, hi), { title: stored.title, body: stored.body });
});

Deno.test("a reporter's notice links to the reported page while it stands, never to the notifications page", () => {
  const notice = (kind: "internship" | "opportunity" | "post", action: "dismiss" | "hide" | "delete") =>
    resolvedNotification({ userId: "u", kind, words: { name: "X" }, action, note: null, url: `/${kind}/x` });
  assertEquals(notice("internship", "hide").url, "/internship/x", "a hidden listing's page says an admin hid it");
  assertEquals(notice("internship", "delete").url, "/internships", "a deleted one's page is gone");
  assertEquals(notice("post", "hide").url, "/ungatekeep", "an unpublished post's page is gone");
  assertEquals(notice("post", "dismiss").url, "/post/x");
  // An opportunity has no deletion: "delete" hides it, and its reporter and owner read what its page says.
  const opportunity = notice("opportunity", "delete");
  assertEquals(opportunity.url, "/opportunity/x");
  assert(words(opportunity, en).body.endsWith("and hid it: students no longer see it."), words(opportunity, en).body);
  const owner = removedNotification({
    userId: "u",
    kind: "opportunity",
    words: { name: "X" },
    action: "delete",
    note: null,
  });
  assertEquals(words(owner, en).title, "Your opportunity was hidden");
});

Deno.test("a listing's review notice in both languages, the admin's note only when written", () => {
  const decided = { heldAt: null, decidedAt: "2026-11-27T01:00:00.000Z", reasons: [] };
  const approved = moderatedNotification({
    kind: "internship",
    listing: { id: "i", title: "Sales intern", moderation: { ...decided, status: "clear", note: null } },
    userId: "u",
  });
  assertEquals(words(approved, en), {
    title: "Your internship was approved",
    body: "“Sales intern” passed review and is now listed for everyone.",
  });
  assertEquals(words(approved), {
    title: "आपकी इंटर्नशिप मंज़ूर हो गई",
    body: "“Sales intern” जाँच में पास होकर अब सबके लिए लिस्ट है।",
  });
  const rejected = moderatedNotification({
    kind: "opportunity",
    listing: { id: "o", title: "Hack", moderation: { ...decided, status: "rejected", note: "Asks for a fee" } },
    userId: "u",
  });
  assertEquals(words(rejected, en), {
    title: "Your opportunity was not approved",
    body: "“Hack” stays hidden from students. The admin wrote: Asks for a fee",
  });
  assertEquals(words(rejected), {
    title: "आपका अवसर मंज़ूर नहीं हुआ",
    body: "छात्र “Hack” को नहीं देख पाएँगे। एडमिन ने लिखा: Asks for a fee",
  });
});

Deno.test("words kept as written, or a message the catalogue no longer has, show as stored", () => {
  const stored = { title: "Payment received", body: "Old words" };
  assertEquals(notificationWords(stored, hi), stored);
  assertEquals(notificationWords({ ...stored, message: { title: { key: "notifications.text.gone" } } }, hi), stored);
  const reply = {
    title: { key: "notifications.text.reply.title", values: { replier: "Ravi", post: "OA" } },
    body: "Thanks!",
  };
  assertEquals(notificationWords({ ...stored, message: reply }, hi), {
    title: "Ravi ने “OA” पर आपके कमेंट का जवाब दिया",
    body: "Thanks!",
  });
});
