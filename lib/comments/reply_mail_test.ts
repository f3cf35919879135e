import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { replyMail } from "./reply_mail.tsx";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

Deno.test("replyMail: quotes the reply as text, escapes it in the HTML, links the reply, the settings and the one-click unsubscribe", () => {
  const mail = replyMail({
    to: "asha@example.com",
    name: "Asha",
    replier: "Ravi <b>",
    postTitle: "OA tips",
    reply: "<script>alert(1)</script>\nsecond line",
    url: "https://app.example/ungatekeep/p#comment-c",
    settingsUrl: "https://app.example/me/settings",
    unsubscribeUrl: "https://app.example/unsubscribe/tok",
    t: translatorFor("en"),
  });
  assertEquals(mail.subject, "Ravi <b> replied to your comment on “OA tips”");
  assert(mail.text.includes("> <script>alert(1)</script>\n> second line"));
  assert(!mail.html.includes("<script>") && !mail.html.includes("<b>"));
  assert(mail.html.includes("&lt;script>alert(1)&lt;/script>"));
  assert(mail.html.includes('href="https://app.example/me/settings"'));
  assertEquals(mail.link, "https://app.example/ungatekeep/p#comment-c");
  assertEquals(mail.headers, {
    "List-Unsubscribe": "<https://app.example/unsubscribe/tok>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
  assert(mail.html.includes('href="https://app.example/unsubscribe/tok"'));
});

Deno.test("replyMail in Hindi for a Hindi reader: subject, text and HTML; names and the reply as written", () => {
  const mail = replyMail({
    to: "asha@example.com",
    name: "Asha",
    replier: "Ravi",
    postTitle: "OA tips",
    reply: "Thanks!",
    url: "https://app.example/ungatekeep/p#comment-c",
    settingsUrl: "https://app.example/me/settings",
    unsubscribeUrl: "https://app.example/unsubscribe/tok",
    t: translatorFor("hi"),
  });
  assertEquals(mail.subject, "Ravi ने “OA tips” पर आपके कमेंट का जवाब दिया");
  assert(mail.text.startsWith("नमस्ते Asha,") && mail.text.includes("> Thanks!"), mail.text);
  assert(mail.text.includes("ये ई-मेल बंद करें: https://app.example/unsubscribe/tok"), mail.text);
  assert(mail.html.includes('<html lang="hi">') && mail.html.includes(">जवाब पढ़ें</a>"), mail.html);
  assert(mail.html.includes('<a href="https://app.example/unsubscribe/tok">ये ई-मेल बंद करें</a>'), mail.html);
  assert(!/replied|Turn these/.test(mail.text + mail.html), "no English of the platform's own");
});
