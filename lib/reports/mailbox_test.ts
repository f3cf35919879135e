import { assertEquals, assertNotEquals } from "@/tests/helpers/assert.ts";
import { canonicalMailbox, mailboxId } from "./mailbox.ts";

Deno.test("canonicalMailbox: case, spaces and +tags dropped; Gmail's dots too, and googlemail.com is gmail.com", () => {
  const cases: [string, string][] = [
    [" RivalCo+1@Gmail.com ", "rivalco@gmail.com"],
    ["rival.co+a+b@gmail.com", "rivalco@gmail.com"],
    ["r.i.v.a.l.co@googlemail.com", "rivalco@gmail.com"],
    ["first.last+jobs@company.in", "first.last@company.in"],
    ["+tag@example.com", "@example.com"],
    ["plain@iitb.ac.in", "plain@iitb.ac.in"],
  ];
  for (const [email, mailbox] of cases) assertEquals(canonicalMailbox(email), mailbox, email);
});

Deno.test("mailboxId: one id per mailbox, another for another mailbox", async () => {
  assertEquals(await mailboxId("a.b+1@gmail.com"), await mailboxId("ab+2@googlemail.com"));
  assertNotEquals(await mailboxId("a.b@company.in"), await mailboxId("ab@company.in"));
  assertEquals((await mailboxId("x@y.in")).length, 64);
});
