/**
 * Input as people type it, on a 360 px phone (docs/decisions.md, Islands, "Input as people type it"): a stipend written
 * "₹15,000" and an application link without `https://` post an internship, which the list's stipend filter then finds;
 * an opportunity's link without `https://` is taken without JavaScript too.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("a stipend with ₹ and commas and a link without https:// are taken as people type them", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await addInternships(t, member, [{ title: "Small Stipend Intern", stipend: 5000 }]);
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/internships/new`);
  await page.getByLabel("Title", { exact: true }).fill("Backend Engineering Intern");
  await page.getByLabel("Hiring organization").fill("Chai Systems");
  await page.getByLabel("Application link", { exact: true }).fill("chai.example.com/jobs/backend");
  await page.getByLabel("Monthly stipend (₹)").fill("₹15,000");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.waitForURL(/\/internships\/[0-9a-f-]{36}\?posted=1$/);
  const id = new URL(page.url()).pathname.split("/").pop();
  const { internship } = await (await t.fetch(`/api/internships/${id}`)).json();
  assertEquals([internship.stipend, internship.link], [15000, "https://chai.example.com/jobs/backend"]);

  await openHydrated(page, `${t.origin}/internships`);
  await page.locator("summary", { hasText: "Filters" }).click();
  await page.getByLabel("Minimum", { exact: true }).fill("10000");
  await page.waitForURL((u) => u.searchParams.get("minStipend") === "10000");
  await page.getByText("Showing 1–1 of 1 internship").waitFor();

  const student = await createTestUser(t, "user");
  const plain = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(plain, t.origin, student);
  const form = await plain.newPage();
  await form.goto(`${t.origin}/opportunities/new`);
  await form.getByLabel("Title").fill("Campus Hack");
  await form.getByLabel("Type").selectOption("hackathon");
  await form.getByLabel("Starts").fill(`${NEXT_YEAR}-05-10`);
  await form.getByLabel("Ends").fill(`${NEXT_YEAR}-05-11`);
  await form.getByLabel("Link to apply or learn more").fill("coep.example.org/hack");
  await form.getByRole("button", { name: "Submit opportunity" }).click();
  await form.waitForURL((u) => u.pathname === "/opportunities/mine");
  const mine = await (await t.fetch("/api/opportunities?mine=true", { headers: student.headers })).json();
  assertEquals(mine.opportunities[0].link, "https://coep.example.org/hack");
});
