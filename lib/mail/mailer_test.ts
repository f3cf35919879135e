import { assertEquals } from "@/tests/helpers/assert.ts";
import { createLogger } from "@/lib/log.ts";
import { createMailer } from "./mailer.ts";
import { unsubscribeHeaders } from "./templates.tsx";

Deno.test("without SMTP the mailer prints each mail's recipient, subject, link and unsubscribe link", async () => {
  const lines: string[] = [];
  const mailer = createMailer(undefined, "from@demo.careers", createLogger("info", (line) => lines.push(line)));
  const mail = { to: "a@demo.careers", subject: "Digest", text: "t", html: "<p>t</p>", link: "https://x/i/1" };
  await mailer.send({ ...mail, headers: unsubscribeHeaders("https://x/unsubscribe/tok") });
  await mailer.send(mail);
  const printed = lines.map((line) => JSON.parse(line));
  assertEquals(printed.map(({ to, subject, link, unsubscribe }) => ({ to, subject, link, unsubscribe })), [
    { to: "a@demo.careers", subject: "Digest", link: "https://x/i/1", unsubscribe: "https://x/unsubscribe/tok" },
    { to: "a@demo.careers", subject: "Digest", link: "https://x/i/1", unsubscribe: undefined },
  ]);
});
