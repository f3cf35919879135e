import { notificationMail } from "./notification_mail.tsx";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const input = {
  to: "asha@example.com",
  name: "Asha <Rao>",
  title: "Your report was resolved",
  body: "Thanks for telling us.",
  url: "https://example.com/me/notifications",
  settingsUrl: "https://example.com/me/settings",
};

Deno.test("a notification e-mail is written in its recipient's language; the stored title stays as it is", () => {
  const hi = notificationMail({ ...input, t: translatorFor("hi") });
  assertEquals(hi.subject, input.title);
  assert(hi.text.startsWith("नमस्ते Asha <Rao>,"), hi.text);
  assert(hi.text.includes(`यहाँ खोलें: ${input.url}`));
  assert(hi.text.includes(`इन्हें अपनी सेटिंग में बंद करें:\n${input.settingsUrl}`));
  assert(hi.html.includes('<html lang="hi">') && hi.html.includes("नमस्ते Asha &lt;Rao>,"), hi.html);
  assert(!/Open it|Turn them off/.test(hi.text + hi.html), "no English of the platform's own");
  assert(hi.html.includes(`>इन्हें अपनी सेटिंग में बंद करें</a>।`), "a Hindi sentence ends in its own full stop");
  const en = notificationMail({ ...input, t: translatorFor("en") });
  assert(en.text.startsWith("Hi Asha <Rao>,") && en.text.includes(`Open it here: ${input.url}`), en.text);
  assert(en.html.includes('<html lang="en">') && en.html.includes(">Open it</a>"), en.html);
  assert(en.html.includes(`>Turn them off in your settings</a>.`), en.html);
});
