/**
 * Applying here in Chromium (docs/decisions.md, Applications, "Applying"; docs/decisions.md, Applications, "The
 * poster's list"): on a 360 px phone without JavaScript a student uploads a resume, applies (a missing answer shown at
 * its field first), and the internship page says "Applied on …"; the poster shortlists them with a message from the
 * applicants page; the student's tracker shows the move and the message, and, once the listing moved city, where it
 * was when they applied; the bell tells them. axe passes on every page. A resume chosen with a form that comes back
 * for a missing answer is asked for again at its field, by its name, in English and Hindi, and is sent when chosen
 * again. A student who presses "Send application" with
 * no connection keeps the page and what they typed, is told nothing was sent, and sends it once when back online; one
 * whose connection reaches nothing while the phone thinks it is online keeps them too (the service worker keeps the
 * page), also when that failure comes after the form's busy period, and is told no answer came, so it may or may not
 * have been sent: a connection that drops after the server took the form fails it the same way. A
 * poster made a user again who follows an earlier "new applicants" notice lands on the listing in "My internships",
 * which says why its applicants are no longer theirs, in English and Hindi at 360 px. A poster's move refused without
 * JavaScript lands where its refusal is on the phone's screen: a card's at that card's form, the batch's at the list.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  hydrated,
  openBrowser,
  signInBrowser,
  type TestBrowser,
} from "@/tests/helpers/browser.ts";
import { assertFitsPhone, PHONE, phoneContext } from "@/tests/helpers/phone.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { pdfBytes } from "@/tests/fixtures/resumes.ts";
import { Buffer } from "node:buffer";

Deno.test("a student applies on a phone without JavaScript; the poster shortlists them; tracker and bell tell them", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member", { name: "Meera Member" });
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Apply Co" });
  await using browser = await openBrowser();

  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const phone = await context.newPage();
  phone.setDefaultTimeout(30_000);
  await phone.goto(`${t.origin}/profile#resume`);
  await phone.getByLabel("Upload your resume").setInputFiles({
    name: "sara-cv.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(pdfBytes()),
  });
  await phone.locator("#resume").getByRole("button", { name: "Upload", exact: true }).click();
  await phone.getByRole("link", { name: /sara-cv\.pdf/ }).first().waitFor();

  await phone.goto(`${t.origin}/internships/${internship.id}`);
  await phone.getByRole("link", { name: "Apply to Data Intern" }).click();
  await phone.getByRole("heading", { name: "Apply to Data Intern" }).waitFor();
  await assertFitsPhone(phone, "the apply form");
  await assertAccessibleWithoutScript(phone, "the apply form");
  await phone.getByRole("button", { name: "Send application" }).click();
  await phone.getByText("Please correct the highlighted fields").waitFor();
  const answer = phone.getByLabel("1. Why do you want this internship?");
  assert(await answer.getAttribute("aria-invalid") === "true", "the missing answer is marked at its field");
  await assertAccessibleWithoutScript(phone, "the apply form with its errors");
  await answer.fill("I want to learn how real data teams work.");
  await phone.getByLabel("Why you, in a few lines (optional)").fill("I built a dashboard for my college fest.");
  await phone.getByRole("button", { name: "Send application" }).click();
  await phone.waitForURL(`${t.origin}/internships/${internship.id}?applied=1`);
  await phone.getByText(/Applied on/).first().waitFor();

  const poster = await browser.newPage();
  await signInBrowser(poster.context(), t.origin, member);
  await poster.goto(`${t.origin}/internships/${internship.id}/applicants`);
  await poster.getByText("I want to learn how real data teams work.").waitFor();
  await assertAccessible(poster, "the applicants page");
  await poster.getByLabel("Select Sara Student").check();
  await poster.getByLabel("New status", { exact: true }).selectOption("shortlisted");
  await poster.getByLabel("Message to the applicants (optional)").fill("Great answers! We will call you on Monday.");
  await poster.getByRole("button", { name: "Move selected" }).click();
  await poster.getByText("1 application moved; the applicant is told.").waitFor();
  await poster.getByRole("link", { name: "Shortlisted (1)" }).waitFor();

  // The listing moves city after she applied: the tracker says where it was when she did.
  const moved = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: { location: "Mumbai" },
    headers: member.headers,
  });
  assertEquals(moved.status, 200);
  await moved.body?.cancel();

  await phone.goto(`${t.origin}/me/tracker`);
  const sent = phone.getByRole("region", { name: "Sent here" });
  await sent.getByText("Great answers! We will call you on Monday.").waitFor();
  assert(await sent.getByText("Shortlisted").first().isVisible(), "the tracker shows the new status");
  const appliedUnder = sent.getByRole("region", { name: "You applied under:" });
  assertEquals(await appliedUnder.locator("dl").innerText(), "Location: not stated → now Mumbai");
  await assertFitsPhone(phone, "the tracker");
  await assertAccessibleWithoutScript(phone, "the tracker");

  const bell = await (await phoneContext(browser)).newPage();
  await signInBrowser(bell.context(), t.origin, student);
  await bell.goto(`${t.origin}/`);
  await hydrated(bell);
  const button = bell.getByRole("button", { name: /Notifications/ });
  await bell.getByTestId("unread-count").waitFor();
  assertEquals(await bell.getByTestId("unread-count").innerText(), "1", "the bell counts one unread notification");
  await button.click();
  await bell.getByText("You are shortlisted for Data Intern at Apply Co").waitFor();
  await assertAccessible(bell, "the bell open");
});

Deno.test("a resume chosen with a form sent back is asked for again by its name, in Hindi too; then it is sent", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await applicant(t, "Sara Student");
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const form = page.locator('form[enctype="multipart/form-data"]');
  const name = "Sara_Student_Resume_Final_Version_Updated_November_2026.pdf";
  const chosen = { name, mimeType: "application/pdf", buffer: Buffer.from(pdfBytes()) };

  // Her new resume goes with a missing answer: the form comes back without the file, and says so at its field.
  for (const lang of ["hi", "en"] as const) {
    const tr = translatorFor(lang);
    await page.goto(`${t.origin}/internships/${internship.id}/apply?lang=${lang}`);
    await form.locator('input[name="file"]').setInputFiles(chosen);
    await form.getByRole("button", { name: tr("applications.form.send") }).click();
    await page.getByText(tr("applications.form.correct")).waitFor();
    assertEquals(
      await page.locator("#apply-file-error").textContent(),
      tr("applications.apply.chooseAgainStored", { name }),
      `${lang}: the field asks for the file again, by its name`,
    );
    assertEquals(await page.locator("#apply-file").getAttribute("aria-invalid"), "true");
    await form.getByRole("link", { name: tr("applications.form.resume"), exact: true }).waitFor();
    await assertFitsPhone(page, `${lang}: the apply form asking for the file again`);
    await assertAccessibleWithoutScript(page, `${lang}: the apply form asking for the file again`);
  }

  await form.locator('input[name="file"]').setInputFiles(chosen);
  await form.getByLabel("1. Why do you want this internship?").fill("I want to learn how real data teams work.");
  await form.getByRole("button", { name: "Send application" }).click();
  await page.waitForURL(`${t.origin}/internships/${internship.id}?applied=1`);
  const resume = await t.fetch("/api/me/resume", { headers: student.headers });
  assertEquals((await resume.json()).resume.name, name, "the new resume went with the application");
});

/**
 * Sara, signed in on a 360 px phone with JavaScript, at the apply form of a new listing with its first answer typed;
 * with `controlled`, once the service worker controls the page. Returns her, the listing, the context and the page.
 */
async function atApplyForm(t: TestApp, browser: TestBrowser, { controlled = false } = {}) {
  const member = await createTestUser(t, "member");
  const student = await applicant(t, "Sara Student");
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const applyUrl = `${t.origin}/internships/${internship.id}/apply`;
  await page.goto(applyUrl);
  if (controlled) await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByLabel("1. Why do you want this internship?").fill("I want to learn how real data teams work.");
  return { student, internship, context, page, applyUrl };
}

Deno.test("sent with no connection, an application keeps the page and what was typed; sent once back online", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const { student, internship, context, page, applyUrl } = await atApplyForm(t, browser);
  const note = page.getByLabel("Why you, in a few lines (optional)");
  await note.fill("I wrote this on the bus and the network went.");

  await context.setOffline(true);
  await page.getByRole("button", { name: "Send application" }).click();
  const unsent = page.getByRole("alert").filter({ hasText: "You are offline: nothing was sent." });
  await unsent.waitFor();
  assertEquals(page.url(), applyUrl, "the page stays");
  assertEquals(await note.inputValue(), "I wrote this on the bus and the network went.", "what was typed is kept");
  await assertFitsPhone(page, "the apply form told it was not sent");
  await assertAccessible(page, "the apply form told it was not sent");

  await context.setOffline(false);
  await unsent.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Send application" }).click();
  await page.waitForURL(`${t.origin}/internships/${internship.id}?applied=1`);
  const mine = await t.fetch("/api/me/applications", { headers: student.headers });
  const { applications } = await mine.json();
  assertEquals(
    applications.map((a: { coverNote: string }) => a.coverNote),
    ["I wrote this on the bus and the network went."],
    "sent once, with the note",
  );
});

Deno.test("sent on a connection that reaches nothing, an application keeps the page and what was typed", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const { student, page, applyUrl } = await atApplyForm(t, browser, { controlled: true });
  const note = page.getByLabel("Why you, in a few lines (optional)");
  await note.fill("I wrote this at the station; the signal showed full bars.");

  await t.stopServing();
  const send = page.getByRole("button", { name: "Send application" });
  await send.click();
  await page.getByRole("alert").filter({ hasText: "No answer came because the connection failed" }).waitFor();
  assertEquals(page.url(), applyUrl, "the page stays");
  assertEquals(await note.inputValue(), "I wrote this at the station; the signal showed full bars.", "typed text kept");
  assertEquals(await page.locator("form[aria-busy=true]").count(), 0, "the form can be sent again");
  await assertAccessible(page, "the apply form told it was not sent");
  const mine = await t.fetch("/api/me/applications", { headers: student.headers });
  assertEquals((await mine.json()).applications, [], "nothing was sent");
});

/** Resolves once `condition` holds, asked every 100 ms; throws after 60 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never came: ${condition}`);
}

Deno.test("a connection that reaches nothing fails the form after its busy period: still told no answer came", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const { page, applyUrl } = await atApplyForm(t, browser, { controlled: true });
  // While the form's navigation is pending Playwright reads nothing of the page: the page tells what it shows.
  const shown: string[] = [];
  page.on("console", (message) => shown.push(message.text()));
  await page.evaluate(() => {
    new MutationObserver(() => {
      const busy = document.querySelector("form[aria-busy=true]") !== null;
      const told = document.querySelector("form [role=alert]")?.textContent ?? "";
      console.log(told ? `told: ${told}` : busy ? "busy" : "idle");
    }).observe(document.body, { subtree: true, attributes: true, childList: true });
  });

  // The server goes out of reach, and its port takes the request and never answers: a phone's dead route, whose
  // failure comes after the form stopped looking busy.
  await t.stopServing();
  const held: Deno.Conn[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: Number(new URL(t.origin).port) });
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    await page.getByRole("button", { name: "Send application" }).evaluate((button: HTMLElement) => button.click());
    await until(() => shown.includes("busy") && held.length > 0);
    await until(() => shown.at(-1) === "idle");
    for (const conn of held) conn.close();
    await until(() => shown.some((line) => line.startsWith("told: No answer came because the connection failed")));
    assertEquals(page.url(), applyUrl, "the page stays");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

/**
 * Takes one HTTP request from `conn` (its head and a `Content-Length` body), has the app answer it in process (the
 * server took the form), then closes the connection without a byte of the answer: a phone's connection dropping after
 * the request arrived. Resolves with the status the app answered, or null for a connection that sent nothing.
 */
async function takeThenDrop(t: TestApp, conn: Deno.Conn): Promise<number | null> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  const bytes = () => Buffer.concat(chunks);
  try {
    let end = -1;
    while (end === -1) {
      const n = await conn.read(buffer);
      if (n === null) return null;
      chunks.push(buffer.slice(0, n));
      end = bytes().indexOf("\r\n\r\n");
    }
    const [line, ...fields] = bytes().subarray(0, end).toString("latin1").split("\r\n");
    const [method, path] = line.split(" ");
    const headers = new Headers();
    for (const field of fields) {
      const colon = field.indexOf(":");
      const name = field.slice(0, colon).trim().toLowerCase();
      if (!["host", "connection", "content-length", "keep-alive"].includes(name)) {
        headers.append(name, field.slice(colon + 1).trim());
      }
    }
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(bytes().subarray(0, end).toString("latin1"))?.[1] ?? 0);
    while (bytes().length < end + 4 + length) {
      const n = await conn.read(buffer);
      if (n === null) return null;
      chunks.push(buffer.slice(0, n));
    }
    const body = bytes().subarray(end + 4, end + 4 + length);
    const res = await t.fetch(path, { method, headers, body: length > 0 ? body : undefined, redirect: "manual" });
    await res.body?.cancel();
    return res.status;
  } finally {
    conn.close();
  }
}

Deno.test("a connection that drops after the server took the form: told it may have been sent, not that it was not", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const { student, page, applyUrl } = await atApplyForm(t, browser, { controlled: true });
  // While the form's navigation is pending Playwright reads nothing of the page: the page tells what it shows.
  const shown: string[] = [];
  page.on("console", (message) => shown.push(message.text()));
  await page.evaluate(() => {
    new MutationObserver(() => {
      const told = document.querySelector("form [role=alert]")?.textContent;
      if (told) console.log(`told: ${told}`);
    }).observe(document.body, { subtree: true, childList: true });
  });

  // The request reaches the server, which stores the application; the answer never reaches the phone.
  await t.stopServing();
  const answered: Promise<number | null>[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: Number(new URL(t.origin).port) });
  const accepting = (async () => {
    for await (const conn of listener) answered.push(takeThenDrop(t, conn));
  })();
  try {
    await page.getByRole("button", { name: "Send application" }).evaluate((button: HTMLElement) => button.click());
    await until(() => shown.some((line) => line.startsWith("told: ")));
    assertEquals((await Promise.all(answered)).filter((status) => status !== null), [303], "the server took it");
    const mine = await t.fetch("/api/me/applications", { headers: student.headers });
    assertEquals((await mine.json()).applications.length, 1, "the application was sent");
    const told = shown.find((line) => line.startsWith("told: "))!;
    assert(!told.includes("nothing was sent"), `a sent form is not told nothing was sent: ${told}`);
    assert(told.includes(translatorFor("en")("layout.offline.unanswered")), told);
    assertEquals(page.url(), applyUrl, "the page stays");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("a poster made a user again follows an old new-applicants notice to My internships, told why", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member", { name: "Meera Member" });
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Apply Co" });
  await applyTo(t, await applicant(t, "Sara Student"), internship);
  const demoted = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals(demoted.status, 200);
  await demoted.body?.cancel();
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, member);
  const phone = await context.newPage();
  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    await phone.goto(`${t.origin}/me/notifications?lang=${lang}`);
    await phone.getByRole("link", { name: tr("applications.daily.title", { count: 1, title: "Data Intern" }) }).click();
    await phone.waitForURL((url) => url.pathname === "/internships/mine");
    await phone.getByText(tr("internships.mine.noLongerPosting")).waitFor();
    await phone.locator(`#internship-${internship.id}`).getByText("Data Intern").first().waitFor();
    await assertFitsPhone(phone, `My internships after an old notice, ${lang}`);
    await assertAccessible(phone, `My internships after an old notice, ${lang}`);
  }
});

Deno.test("a poster's move sent back without JavaScript lands at what was wrong: a card's at its card, the batch's at the list", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member", { name: "Meera Member" });
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Apply Co" });
  for (const name of ["Asha Applicant", "Bala Applicant", "Chitra Applicant"]) {
    await applyTo(t, await applicant(t, name), internship);
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, member);
  const phone = await context.newPage();
  phone.setDefaultTimeout(30_000);
  /** Whether `text` is drawn within the phone's screen as the page shows now. */
  const onScreen = async (text: string) => {
    const box = await phone.getByText(text, { exact: true }).first().boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= PHONE.height;
  };
  await phone.goto(`${t.origin}/internships/${internship.id}/applicants`);
  const last = phone.locator("li").filter({ hasText: "Chitra Applicant" });
  await last.getByText("Move Chitra Applicant’s application").click();
  await last.getByRole("textbox").fill("Thanks for applying!");
  await last.getByRole("button", { name: "Move", exact: true }).click();
  await phone.getByText("Choose the new status.", { exact: true }).waitFor();
  assertEquals(await onScreen("Choose the new status."), true, "the card's refusal is on screen");
  assertEquals(
    await phone.locator("li").filter({ hasText: "Chitra Applicant" }).getByRole("textbox").inputValue(),
    "Thanks for applying!",
  );

  await phone.getByRole("button", { name: "Move selected" }).click();
  await phone.getByText("Select at least one applicant to move.", { exact: true }).first().waitFor();
  assertEquals(await onScreen("Select at least one applicant to move."), true, "the batch's refusal is on screen");
});
