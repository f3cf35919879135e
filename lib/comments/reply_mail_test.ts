import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { replyMail } from "./reply_mail.tsx";

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
