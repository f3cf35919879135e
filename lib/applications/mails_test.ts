import { statusMail } from "./mails.tsx";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { assert } from "@/tests/helpers/assert.ts";

const input = {
  to: "asha@example.com",
  name: "Asha",
  message: null,
  url: "https://example.com/me/tracker",
  settingsUrl: "https://example.com/me/settings",
};

Deno.test("a status e-mail ends its sentences with the full stop of its recipient's language", () => {
  const hi = translatorFor("hi");
  const sentence = hi("applications.sentence.shortlisted", { title: "Data Intern", organization: "Acme" });
  const mail = statusMail({ ...input, sentence, t: hi });
  assert(mail.text.includes(`\n${sentence}।\n`), mail.text);
  assert(mail.html.includes(`<strong>${sentence}।</strong>`), mail.html);
  assert(mail.html.includes(">ये ई-मेल अपनी सेटिंग में बंद करें</a>।"), mail.html);
  assert(!/[^\s.]\.(<|\n|$)/.test(mail.text + mail.html.replace(/<[^>]*>/g, "<")), "no Latin full stop after Hindi");
  const en = statusMail({ ...input, sentence: "You are shortlisted for Data Intern at Acme", t: translatorFor("en") });
  assert(en.text.includes("\nYou are shortlisted for Data Intern at Acme.\n"), en.text);
  assert(en.html.includes(">Turn these e-mails off in your settings</a>."), en.html);
});
