/**
 * The foundation in a real browser (Chromium): sign-up, the verification link from the captured
 * e-mail, the onboarding wizard, the profile form with a server validation error and its fix,
 * sign-out, sign-in, the password reset, and an admin changing a user's role in the admin table
 * through the confirmation dialog. Every page visited is checked with axe-core.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { assertAccessible, hydrated, openAccountMenu, openBrowser, openHydrated } from "@/tests/helpers/browser.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { getUser, getUserByEmail, updateUser } from "@/lib/users/users.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";

const ADMIN_EMAIL = "boss@example.com";
const STUDENT = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical-engine" };

/** The link of the last e-mail sent to `to` whose subject matches `subject`. */
async function mailLink(t: TestApp, to: string, subject: RegExp): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = t.mails.findLast((m) => m.to === to && subject.test(m.subject));
    if (mail) return mail.link;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no e-mail to ${to} matching ${subject}`);
}

async function onboardStudent(page: Page) {
  await assertAccessible(page, "onboarding: persona");
  await page.getByLabel("I am a student").check();
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Location" }).waitFor();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("Enter your city.").waitFor();
  assertEquals(await page.getByLabel("Your city").getAttribute("aria-invalid"), "true");
  await assertAccessible(page, "onboarding: location with an error");
  await page.getByLabel("Your city").fill("Pune");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Education level" }).waitFor();
  await assertAccessible(page, "onboarding: education level");
  await page.getByLabel("Undergraduate").check();
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Field of study" }).waitFor();
  await page.getByLabel("What do you study?").selectOption("Other");
  await page.getByLabel("Your field of study").fill("Marine biology");
  await assertAccessible(page, "onboarding: field of study");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Opportunities" }).waitFor();
  await page.getByLabel("Hackathons").check();
  await page.getByLabel("Internships").check();
  await assertAccessible(page, "onboarding: opportunities");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Domains" }).waitFor();
  await page.getByLabel("Research").check();
  await page.getByRole("button", { name: "Back" }).click();
  await page.getByRole("heading", { name: "Opportunities" }).waitFor();
  assert(await page.getByLabel("Hackathons").isChecked(), "going back lost an answer");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Domains" }).waitFor();
  await assertAccessible(page, "onboarding: domains");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Challenges" }).waitFor();
  await page.getByLabel("Networking").check();
  await assertAccessible(page, "onboarding: challenges");
  await page.getByRole("button", { name: "Finish" }).click();
  await page.waitForURL(/\/\?onboarded=1#for-you$/);
  await page.getByRole("heading", { name: "For you" }).waitFor();
}

Deno.test("a student signs up, verifies, onboards, edits the profile, signs out and back in, resets the password", async () => {
  await using t = await createTestApp({ listen: true, env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await openHydrated(page, `${t.origin}/sign-up`);
  await assertAccessible(page, "sign-up");
  await page.getByLabel("Name").fill("Al");
  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Enter a name of 3 to 100 characters.").waitFor();
  await page.getByText("Enter a valid e-mail address").waitFor();
  await page.getByText("Use at least 8 characters.").waitFor();
  assertEquals(await page.getByLabel("Name").getAttribute("aria-invalid"), "true");
  assertEquals(await page.getByLabel("Name").getAttribute("aria-describedby"), "name-error");
  await t.settled();
  assertEquals(t.mails.length, 0);
  await assertAccessible(page, "sign-up with errors");

  await page.getByLabel("Name").fill(STUDENT.name);
  await page.getByLabel("E-mail").fill(STUDENT.email);
  await page.getByLabel("Password").fill(STUDENT.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/check-inbox\?email=ada%40example\.com$/);
  await page.getByText("We sent a verification link to").waitFor();
  assertMatch(await page.locator("main").innerText(), /ada@example\.com[\s\S]*expires in 24 hours/);
  await assertAccessible(page, "check-inbox");

  const verification = await mailLink(t, STUDENT.email, /verify/i);
  assertMatch(verification, /callbackURL=%2Fonboarding|callbackURL=\/onboarding/);
  await openHydrated(page, verification);
  assertEquals(new URL(page.url()).pathname, "/onboarding");
  await page.getByRole("heading", { name: `Welcome, ${STUDENT.name}` }).waitFor();
  await onboardStudent(page);

  const student = (await getUserByEmail(t.kv, STUDENT.email))!;
  assertEquals(student.emailVerified, true);
  assertEquals(student.role, "user");
  const onboarding = await getOnboardingProfile(t.kv, student.id);
  assertEquals(
    onboarding && {
      persona: onboarding.persona,
      locationType: onboarding.locationType,
      locationValue: onboarding.locationValue,
      educationLevel: onboarding.educationLevel,
      fieldOfStudy: onboarding.fieldOfStudy,
      fieldOther: onboarding.fieldOther,
      opportunityInterests: onboarding.opportunityInterests,
      domainPreferences: onboarding.domainPreferences,
      struggles: onboarding.struggles,
    },
    {
      persona: "student",
      locationType: "city",
      locationValue: "Pune",
      educationLevel: "Undergraduate",
      fieldOfStudy: "Other",
      fieldOther: "Marine biology",
      opportunityInterests: ["hackathons", "internships"],
      domainPreferences: ["Research"],
      struggles: ["Networking"],
    },
  );

  await hydrated(page);
  await page.getByText("You are all set").waitFor();
  await assertAccessible(page, "home after onboarding");
  await page.getByRole("link", { name: "complete your profile" }).click();
  await page.waitForURL(/\/profile$/);
  await hydrated(page);
  await assertAccessible(page, "profile");
  await page.getByLabel("Contact number").fill("987654321");
  await page.getByLabel("College or institute").fill("College of Engineering Pune");
  assert(await page.getByLabel("Research").isChecked(), "onboarding's domains fill the profile's fields");
  await page.getByLabel("Data & AI").check();
  await page.getByRole("button", { name: "Save profile" }).click();
  await page.getByText("Enter a 10-digit mobile number").waitFor();
  const contact = page.getByLabel("Contact number");
  assertEquals(await contact.getAttribute("aria-invalid"), "true");
  assertEquals(await contact.getAttribute("aria-describedby"), "contactNumber-hint contactNumber-error");
  assert(await contact.evaluate((el) => el === document.activeElement), "the invalid field has no focus");
  assertEquals((await getUser(t.kv, student.id))!.contactNumber, null);
  await assertAccessible(page, "profile with an error");

  await contact.fill("9876543210");
  await page.getByRole("button", { name: "Save profile" }).click();
  await page.getByText("Your profile has been saved.").waitFor();
  assertEquals(await contact.getAttribute("aria-invalid"), null);
  const saved = (await getUser(t.kv, student.id))!;
  assertEquals(saved.contactNumber, "9876543210");
  assertEquals(saved.collegeInstitute, "College of Engineering Pune");
  assertEquals(saved.fieldInterests, ["Research", "Data & AI"]);

  await openAccountMenu(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(`${t.origin}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
  await assertAccessible(page, "home");
  assertEquals((await page.context().cookies()).filter((c) => c.name === "session"), []);

  await openHydrated(page, `${t.origin}/profile`);
  assertEquals(new URL(page.url()).pathname + new URL(page.url()).search, "/sign-in?callbackURL=%2Fprofile");
  await assertAccessible(page, "sign-in");
  await page.getByLabel("E-mail").fill(STUDENT.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("The e-mail or password is not right.").waitFor();
  await assertAccessible(page, "sign-in with an error");
  await page.getByLabel("Password").fill(STUDENT.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${t.origin}/profile`);
  await openAccountMenu(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(`${t.origin}/`);

  await openHydrated(page, `${t.origin}/sign-in`);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL(`${t.origin}/forgot-password`);
  await hydrated(page);
  await assertAccessible(page, "forgot-password");
  await page.getByLabel("E-mail").fill(STUDENT.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await page.getByText(`If an account exists for ${STUDENT.email}`).waitFor();
  await assertAccessible(page, "forgot-password sent");

  const reset = await mailLink(t, STUDENT.email, /reset/i);
  await openHydrated(page, reset);
  assertEquals(new URL(page.url()).pathname, "/reset-password");
  await assertAccessible(page, "reset-password");
  await page.getByLabel("New password", { exact: true }).fill("difference-engine");
  await page.getByLabel("Confirm new password").fill("difference-engin");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("The passwords do not match.").waitFor();
  await page.getByLabel("Confirm new password").fill("difference-engine");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("Your password has been changed").waitFor();
  await assertAccessible(page, "reset-password done");

  await openHydrated(page, reset);
  await page.getByText("This reset link has expired or was already used").waitFor();
  assertEquals(await page.getByLabel("New password", { exact: true }).count(), 0, "no form to type into first");
  await page.getByRole("link", { name: "Request a new link" }).waitFor();
  await assertAccessible(page, "reset-password with a spent link");

  await openHydrated(page, `${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(STUDENT.email);
  await page.getByLabel("Password").fill("difference-engine");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${t.origin}/`);
  await page.locator("summary", { hasText: `Account menu: ${STUDENT.name}` }).waitFor();
});

Deno.test("an unverified user signing in is told to verify and can have the link sent again", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const page = await browser.newPage();
  const signUp = await t.json("POST", "/api/auth/sign-up/email", { body: { ...STUDENT, callbackURL: "/onboarding" } });
  assertEquals(signUp.status, 200);
  await signUp.body?.cancel();

  await openHydrated(page, `${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(STUDENT.email);
  await page.getByLabel("Password").fill(STUDENT.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("Verify your e-mail to sign in").waitFor();
  await assertAccessible(page, "sign-in unverified");
  await page.getByRole("button", { name: "Send the e-mail again" }).click();
  await page.getByText(`We sent the link to ${STUDENT.email} again`).waitFor();
  assertEquals(new URL(page.url()).pathname, "/sign-in");
});

Deno.test("a suspended person signing in is told the account is suspended and where to appeal", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const page = await browser.newPage();
  const person = await passwordUser(t, { email: "vikram@example.com" });
  await updateUser(t.kv, person.id, { suspension: { at: new Date().toISOString(), reason: "A scam", by: null } });

  await openHydrated(page, `${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("This account is suspended").waitFor();
  await assertAccessible(page, "sign-in suspended");
  assertEquals(
    await page.getByRole("link", { name: "write to us through the contact page" }).getAttribute("href"),
    "/contact",
  );
  assertEquals(new URL(page.url()).pathname, "/sign-in");
});

Deno.test("an admin changes a user's role in the admin table after confirming", async () => {
  await using t = await createTestApp({ listen: true, env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  await using browser = await openBrowser();
  const page = await browser.newPage();
  const student = await createTestUser(t, "user", { name: "Grace Hopper" });
  for (let i = 0; i < 22; i++) await createTestUser(t, "user", { name: `Filler ${i}` });

  // Signed up by this browser (its request context shares the cookies), so the link signs it in.
  const signUp = await page.request.post(`${t.origin}/api/auth/sign-up/email`, {
    headers: { origin: t.origin },
    data: {
      name: "Boss Admin",
      email: ADMIN_EMAIL,
      password: "admin-password",
      callbackURL: "/onboarding",
    },
  });
  assertEquals(signUp.status(), 200);
  await signUp.dispose();
  await openHydrated(page, await mailLink(t, ADMIN_EMAIL, /verify/i));
  assertEquals((await getUserByEmail(t.kv, ADMIN_EMAIL))!.role, "admin");

  await page.getByRole("link", { name: "Admin", exact: true }).click();
  await page.waitForURL(`${t.origin}/admin`);
  await assertAccessible(page, "admin home");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).click();
  await page.waitForURL(`${t.origin}/admin/users`);
  await hydrated(page);
  await page.getByText("1–20 of 24").waitFor();
  await assertAccessible(page, "admin users");
  await page.getByRole("row", { name: /Boss Admin/ }).getByText("admin (you)").waitFor();
  assertEquals(await page.getByRole("row", { name: /Boss Admin/ }).locator("select").count(), 0);

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("21–24 of 24").waitFor();
  assert(await page.getByRole("button", { name: "Next" }).isDisabled(), "Next is enabled on the last page");
  await page.getByRole("button", { name: "Previous" }).click();
  await page.getByText("1–20 of 24").waitFor();

  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByText("1–1 of 1").waitFor();
  await page.getByLabel("Role", { exact: true }).selectOption("");
  await page.getByLabel("Search by name or e-mail").fill("nobody-has-this-name");
  await page.getByText("No users match this search.").waitFor();
  await page.getByLabel("Search by name or e-mail").fill("grace");
  await page.getByText("1–1 of 1").waitFor();

  const role = page.getByLabel("Role of Grace Hopper");
  await role.selectOption("admin");
  const dialog = page.getByRole("dialog", { name: "Change role?" });
  await dialog.waitFor();
  await assertAccessible(page, "admin users: confirm dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "hidden" });
  assertEquals(await role.inputValue(), "user");
  assertEquals((await getUser(t.kv, student.user.id))!.role, "user");

  await role.selectOption("member");
  await dialog.getByText("from user to member").waitFor();
  await dialog.getByRole("button", { name: "Make member" }).click();
  await page.getByText("Grace Hopper is now a member.").waitFor();
  await dialog.waitFor({ state: "hidden" });
  assertEquals((await getUser(t.kv, student.user.id))!.role, "member");

  await openHydrated(page, `${t.origin}/admin/users`);
  await page.getByLabel("Search by name or e-mail").fill("grace");
  await page.getByText("1–1 of 1").waitFor();
  assertEquals(await page.getByLabel("Role of Grace Hopper").inputValue(), "member");

  // Suspension: the row's form, sent by the island; the badge and "Lift suspension" replace it without a reload.
  const grace = page.getByRole("row", { name: /Grace Hopper/ });
  await grace.getByText("Suspend… Grace Hopper").click();
  await grace.getByLabel("Reason").fill("Asked applicants for a deposit");
  assert(await grace.getByLabel("Also hide their open listings").isChecked(), "hiding is on by default");
  await assertAccessible(page, "admin users: suspend form");
  await grace.getByRole("button", { name: "Suspend Grace Hopper" }).click();
  await grace.getByText("Asked applicants for a deposit").waitFor();
  await page.getByText("The account is suspended. No open listing of theirs was hidden.").waitFor();
  assertEquals((await getUser(t.kv, student.user.id))!.suspension?.reason, "Asked applicants for a deposit");
  await grace.getByRole("button", { name: "Lift suspension Grace Hopper" }).click();
  await grace.getByText("Suspend… Grace Hopper").waitFor();
  assertEquals((await getUser(t.kv, student.user.id))!.suspension, null);
  // Suspended without the hide, the answer says nothing of hiding.
  await grace.getByText("Suspend… Grace Hopper").click();
  await grace.getByLabel("Reason").fill("Asked applicants for a deposit");
  await grace.getByLabel("Also hide their open listings").uncheck();
  await grace.getByRole("button", { name: "Suspend Grace Hopper" }).click();
  await page.getByText("The account is suspended.", { exact: true }).waitFor();
  await grace.getByRole("button", { name: "Lift suspension Grace Hopper" }).click();
  await grace.getByText("Suspend… Grace Hopper").waitFor();

  // Made a user again: the dialog says what it does to her listings, the answer how many closed.
  const [listing] = await createInternships(t.kv, (await getUser(t.kv, student.user.id))!, [
    internshipInput({ applyMode: "platform", link: null }),
  ]);
  await page.getByLabel("Role of Grace Hopper").selectOption("user");
  await dialog.getByText("their open listings that take applications here close").waitFor();
  await assertAccessible(page, "admin users: confirm dialog of a demotion");
  await dialog.getByRole("button", { name: "Make user" }).click();
  await page.getByText("Grace Hopper is now a user. 1 open listing of theirs that takes applications here was closed")
    .waitFor();
  assertEquals((await getUser(t.kv, student.user.id))!.role, "user");
  assert((await t.kv.get(["internships_closed", listing.id])).value, "her listing closed");
});
