/**
 * `/internships` on a 360 px phone: the search field is above the results without opening the folded filters, the
 * results can be sorted by newest, deadline and stipend, and the page links one RSS feed; without JavaScript the search
 * form keeps the folded filters and the order, and the filter form keeps the search (docs/decisions.md, Internships,
 * "The list page on a phone").
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, assertAccessibleWithoutScript, openBrowser, openHydrated } from "@/tests/helpers/browser.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { istToday } from "@/lib/dates.ts";
import { PHONE, phoneContext } from "@/tests/helpers/phone.ts";

const day = (n: number) => istToday(new Date(Date.now() + n * 86_400_000));

Deno.test("on a phone the search field is above the results; they sort by deadline and stipend; one feed link", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  for (
    const fields of [
      { title: "Data Intern Late", deadline: day(30), stipend: 8000, type: "remote" as const },
      { title: "Data Intern Rich", deadline: day(10), stipend: 25000, type: "onsite" as const },
      { title: "Data Intern Soon", deadline: day(2), stipend: 5000, type: "remote" as const },
      { title: "Design Intern", deadline: day(1), stipend: 40000, type: "remote" as const },
    ]
  ) await addInternships(t, member, [fields]);
  await using browser = await openBrowser();
  const page = await (await phoneContext(browser)).newPage();
  const titles = async () => await page.locator("#results-heading ~ ul article h3").allInnerTexts();

  await openHydrated(page, `${t.origin}/internships`);
  const search = page.getByRole("searchbox", { name: "Search" });
  assert(await search.isVisible(), "the search field shows without opening the filters");
  const box = (await search.boundingBox())!;
  assert(box.y + box.height <= PHONE.height, "on the first screen");
  assertEquals(await page.getByRole("main").getByRole("link", { name: /RSS/ }).count(), 1, "one feed link");

  await search.fill("data");
  await page.waitForURL((u) => u.searchParams.get("search") === "data");
  await page.getByLabel("Sort").selectOption("deadline");
  await page.waitForURL((u) => u.searchParams.get("sort") === "deadline");
  // The results are marked busy with the new address until the new order is drawn.
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached" });
  await page.getByText("Showing 1–3 of 3 internships").waitFor();
  assertEquals(await titles(), ["Data Intern Soon", "Data Intern Rich", "Data Intern Late"]);
  await page.getByLabel("Sort").selectOption("stipend");
  await page.waitForURL((u) => u.searchParams.get("sort") === "stipend");
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached" });
  await page.locator("#results-heading ~ ul article h3").first().getByText("Data Intern Rich").waitFor();
  assertEquals(await titles(), ["Data Intern Rich", "Data Intern Late", "Data Intern Soon"]);
  assertEquals(
    await page.getByRole("main").getByRole("link", { name: "RSS feed" }).getAttribute("href"),
    "/internships/rss.xml?search=data",
  );
  await assertAccessible(page, "/internships sorted at 360 px");
});

Deno.test("without JavaScript the search form keeps the filters and the order, the filter form keeps the search", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await addInternships(t, member, [
    { title: "Data Intern Remote", type: "remote", stipend: 9000 },
    { title: "Data Intern Onsite", type: "onsite", stipend: 30000 },
    { title: "Data Intern Remote Rich", type: "remote", stipend: 20000 },
  ]);
  await using browser = await openBrowser();
  const page = await (await phoneContext(browser, { javaScriptEnabled: false })).newPage();
  await page.goto(`${t.origin}/internships?types=remote`);
  await page.getByRole("searchbox", { name: "Search" }).fill("data");
  await page.getByLabel("Sort").selectOption("stipend");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("search") === "data");
  const url = new URL(page.url());
  assertEquals([url.searchParams.get("types"), url.searchParams.get("sort")], ["remote", "stipend"]);
  assertEquals(await page.locator("#results-heading ~ ul article h3").allInnerTexts(), [
    "Data Intern Remote Rich",
    "Data Intern Remote",
  ]);
  await assertAccessibleWithoutScript(page, "/internships without JavaScript at 360 px");

  await page.locator("summary", { hasText: "Filters" }).click();
  await page.getByRole("checkbox", { name: "Remote" }).uncheck();
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForURL((u) => !u.searchParams.getAll("types").includes("remote"));
  const after = new URL(page.url());
  assertEquals([after.searchParams.get("search"), after.searchParams.get("sort")], ["data", "stipend"]);
  assertEquals(await page.locator("#results-heading ~ ul article h3").allInnerTexts(), [
    "Data Intern Onsite",
    "Data Intern Remote Rich",
    "Data Intern Remote",
  ]);
});

Deno.test("a load that fails before any other shows its error among the page's own results; the next load replaces them", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await addInternships(t, member, [{ title: "Data Intern" }, { title: "Design Intern" }]);
  await using browser = await openBrowser();
  const page = await (await phoneContext(browser)).newPage();
  const titles = async () => await page.locator("#results-heading ~ ul article h3").allInnerTexts();
  await openHydrated(page, `${t.origin}/internships`);
  await page.route(/\/api\/internships\?/, (route) => route.abort());
  await page.getByRole("searchbox", { name: "Search" }).fill("data");
  await page.locator("#results-notice").getByText(/could not reach the server/).waitFor();
  assertEquals((await titles()).toSorted(), ["Data Intern", "Design Intern"], "the page's own results stay");
  await page.unroute(/\/api\/internships\?/);
  await page.getByRole("searchbox", { name: "Search" }).fill("design");
  await page.getByText("Showing 1–1 of 1 internship").waitFor();
  assertEquals(await titles(), ["Design Intern"]);
  assertEquals(await page.locator("#results-notice").innerText(), "");
});
