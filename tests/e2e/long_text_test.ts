/**
 * Long unbroken text (a pasted URL, a word of 190 letters) wraps instead of widening the page:
 * the internship list and detail pages at 360 px scroll only vertically, and nothing sticks out of a card (the list's
 * cards clip what overflows them, so the page's width alone would not show it).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser } from "@/tests/helpers/browser.ts";
import { PHONE, PHONE_CONTEXT } from "@/tests/helpers/phone.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";

Deno.test("long unbroken text wraps on the internship pages at 360 px", async () => {
  await using t = await createTestApp({ listen: true });
  const owner = await createTestUser(t, "member");
  const long = "A".repeat(190);
  const [internship] = await addInternships(t, owner, [{
    title: `Intern${long}`,
    description: `See https://careers.example.com/${"x".repeat(400)} and ${long}`,
    hiringOrganization: `Org${long}`,
    hiringManager: `Manager${long}`,
    link: `https://careers.example.com/jobs/${"y".repeat(300)}`,
    location: `Town${"z".repeat(80)}`,
    tags: [`tag${"t".repeat(45)}`],
    duration: `Six${long.slice(0, 90)}`,
    experience: `None${long.slice(0, 90)}`,
  }]);
  await using browser = await openBrowser();
  const page = await browser.newPage(PHONE_CONTEXT);
  for (const path of ["/internships", `/internships/${internship.id}`, "/"]) {
    await page.goto(`${t.origin}${path}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assertEquals(width, PHONE.width, `${path} is ${width} px wide`);
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll("article")].flatMap((card) => {
        const right = card.getBoundingClientRect().right;
        return [...card.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > right + 0.5)
          .map((e) => e.tagName);
      })
    );
    assertEquals(outside, [], `${path}: these stick out of their card`);
  }
});
