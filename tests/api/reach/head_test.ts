/**
 * The head of public pages (docs/decisions.md, Search engines and sharing): title, description, canonical URL, Open
 * Graph and Twitter tags on every public page, and each detail page's JSON-LD checked field by field against its
 * record: `JobPosting` for an open internship (with the properties Google's job rich result requires) and none for a
 * closed one, `Event`, `Course` with an INR `Offer`, `Article`; `</script>` in a field stays inside the JSON.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship, postInternships } from "@/tests/fixtures/internships.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import { istToday } from "@/lib/dates.ts";
import { htmlDocument, jsonLdOf, metaContent } from "@/tests/fixtures/html.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayFromToday = (days: number) => istToday(new Date(Date.now() + days * DAY_MS));

async function page(t: TestApp, path: string, who?: TestUser) {
  const res = await t.fetch(path, { headers: who?.headers });
  assertEquals(res.status, 200, path);
  return htmlDocument(await res.text());
}

/** The head tags every public page carries, for `path` on the test origin. */
function assertShareTags(document: Document, t: TestApp, path: string, title: string) {
  assertEquals(document.querySelector("title")?.textContent, `${title} · Career Community`, path);
  assertEquals(document.querySelectorAll("title").length, 1, path);
  assertEquals(document.querySelector('link[rel="canonical"]')?.getAttribute("href"), `${t.origin}${path}`);
  assertEquals(metaContent(document, "og:title"), title);
  assertEquals(metaContent(document, "og:url"), `${t.origin}${path}`);
  for (const key of ["description", "og:description", "og:image", "og:type", "twitter:card", "twitter:image"]) {
    assert(metaContent(document, key), `${path}: ${key}`);
  }
  assert(metaContent(document, "og:image")!.startsWith(`${t.origin}/`), path);
}

Deno.test("every public page has a title, description, canonical URL, Open Graph and Twitter tags", async () => {
  await using t = await createTestApp();
  const pages: [string, string][] = [
    ["/", "Find internships and opportunities"],
    ["/internships", "Internships"],
    ["/opportunities", "Opportunities"],
    ["/toolkits", "Toolkits"],
    ["/ungatekeep", "Ungatekeep"],
    ["/sign-in", "Sign in"],
    ["/sign-up", "Create your account"],
    ["/privacy", "Privacy policy"],
    ["/terms", "Terms of use"],
    ["/refunds", "Cancellation and refunds"],
    ["/contact", "Contact us"],
  ];
  for (const [path, title] of pages) assertShareTags(await page(t, path), t, path, title);
  const document = await page(t, "/");
  assertEquals(metaContent(document, "og:image"), `${t.origin}/share.png`);
  const image = await t.fetch("/share.png");
  assertEquals([image.status, image.headers.get("content-type")], [200, "image/png"]);
  await image.body?.cancel();
});

Deno.test("an open internship's page is a JobPosting with Google's required properties, field by field", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const deadline = dayFromToday(10);
  const onsite = await postInternship(t, member, {
    title: "Data Analyst Intern",
    description: "Clean data and build dashboards.",
    hiringOrganization: "Acme Analytics",
    type: "onsite",
    timing: "part_time",
    location: "Pune, Maharashtra",
    stipend: 15000,
    deadline,
  });
  const document = await page(t, `/internships/${onsite.id}`);
  assertShareTags(document, t, `/internships/${onsite.id}`, "Data Analyst Intern");
  assertEquals(metaContent(document, "description"), "Clean data and build dashboards.");
  const [posting] = jsonLdOf(document);
  for (const required of ["title", "description", "datePosted", "hiringOrganization"]) assert(posting[required]);
  assert(posting.jobLocation || posting.jobLocationType);
  assertEquals(posting, {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    title: "Data Analyst Intern",
    description: "Clean data and build dashboards.",
    datePosted: onsite.createdAt,
    validThrough: `${deadline}T23:59:59+05:30`,
    employmentType: ["INTERN", "PART_TIME"],
    hiringOrganization: { "@type": "Organization", name: "Acme Analytics" },
    jobLocation: {
      "@type": "Place",
      address: { "@type": "PostalAddress", addressLocality: "Pune, Maharashtra", addressCountry: "IN" },
    },
    baseSalary: {
      "@type": "MonetaryAmount",
      currency: "INR",
      value: { "@type": "QuantitativeValue", value: 15000, unitText: "MONTH" },
    },
    directApply: false,
    url: `${t.origin}/internships/${onsite.id}`,
    identifier: { "@type": "PropertyValue", name: "Career Community", value: onsite.id },
  });

  const remote = await postInternship(t, member, { type: "remote", timing: "full_time", stipend: null });
  const [remotePosting] = jsonLdOf(await page(t, `/internships/${remote.id}`));
  assertEquals(remotePosting.jobLocationType, "TELECOMMUTE");
  assertEquals(remotePosting.applicantLocationRequirements, { "@type": "Country", name: "India" });
  assertEquals(remotePosting.employmentType, ["INTERN", "FULL_TIME"]);
  assertEquals([remotePosting.jobLocation, remotePosting.baseSalary, remotePosting.validThrough], [
    undefined,
    undefined,
    undefined,
  ]);
  assertEquals(remotePosting.description, "Backend Intern at Example Labs.");
});

Deno.test("a closed, an inactive and a deadline-today internship: JobPosting only while it is open", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const closed = await postInternship(t, member, { deadline: dayFromToday(-1) });
  const today = await postInternship(t, member, { deadline: dayFromToday(0) });
  const inactive = await postInternship(t, member, {});
  const patch = await t.json("PUT", `/api/internships/${inactive.id}`, {
    body: { isActive: false },
    headers: admin.headers,
  });
  assertEquals(patch.status, 200);
  assertEquals(jsonLdOf(await page(t, `/internships/${closed.id}`)), []);
  assertEquals(jsonLdOf(await page(t, `/internships/${inactive.id}`, admin)), []);
  assertEquals(jsonLdOf(await page(t, `/internships/${today.id}`))[0]["@type"], "JobPosting");
});

Deno.test("</script> in a title stays inside the JSON-LD, and the page runs no injected script", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const title = "</script><script>alert(1)</script>";
  const internship = await postInternship(t, member, { title, hiringOrganization: "<!-- Org </script>" });
  const res = await t.fetch(`/internships/${internship.id}`);
  const html = await res.text();
  assert(!html.includes("<script>alert(1)</script>"));
  const document = htmlDocument(html);
  const [posting] = jsonLdOf(document);
  assertEquals([posting.title, (posting.hiringOrganization as { name: string }).name], [title, "<!-- Org </script>"]);
  assertEquals(
    [...document.querySelectorAll("script")]
      .filter((s) => !s.getAttribute("type")?.includes("json") && !s.getAttribute("src")?.startsWith("/_build/"))
      .length,
    0,
  );
});

Deno.test("an opportunity is an Event, a toolkit a Course with an INR Offer, a post an Article", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Meera Member" });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });

  const opportunity = await submitOpportunity(t, member, {
    title: "Smart Hack",
    description: "36 hours of building.",
    location: "Bengaluru",
    type: "hackathon",
    startDate: `${NEXT_YEAR}-03-01`,
    endDate: `${NEXT_YEAR}-03-02`,
    link: "https://hack.example.org",
    organizer: "AICTE",
  });
  const document = await page(t, `/opportunities/${opportunity.id}`);
  assertShareTags(document, t, `/opportunities/${opportunity.id}`, "Smart Hack");
  assertEquals(jsonLdOf(document), [{
    "@context": "https://schema.org",
    "@type": "Event",
    name: "Smart Hack",
    description: "36 hours of building.",
    startDate: `${NEXT_YEAR}-03-01`,
    endDate: `${NEXT_YEAR}-03-02`,
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    eventStatus: "https://schema.org/EventScheduled",
    location: {
      "@type": "Place",
      name: "Bengaluru",
      address: { "@type": "PostalAddress", addressLocality: "Bengaluru", addressCountry: "IN" },
    },
    organizer: { "@type": "Organization", name: "AICTE", url: "https://hack.example.org" },
    url: `${t.origin}/opportunities/${opportunity.id}`,
  }]);
  const onlineId = (await submitOpportunity(t, member, {
    title: "Online Ideathon",
    type: "ideathon",
    location: "Online",
    startDate: `${NEXT_YEAR}-04-01`,
    endDate: `${NEXT_YEAR}-04-01`,
  })).id;
  const [event] = jsonLdOf(await page(t, `/opportunities/${onlineId}`));
  assertEquals(event.eventAttendanceMode, "https://schema.org/OnlineEventAttendanceMode");
  assertEquals(event.location, { "@type": "VirtualLocation", url: `${t.origin}/opportunities/${onlineId}` });
  assertEquals(event.organizer, { "@type": "Organization", name: "Meera Member" });

  const toolkit = await addToolkit({ t, admin }, {
    coverImageUrl: "https://cdn.example.com/cover.png",
    isActive: false,
  });
  assertEquals(jsonLdOf(await page(t, `/toolkits/${toolkit.id}`, admin)), [], "an inactive toolkit has no Course");
  await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, { body: { isActive: true }, headers: admin.headers });
  const toolkitPage = await page(t, `/toolkits/${toolkit.id}`);
  assertEquals(metaContent(toolkitPage, "og:image"), "https://cdn.example.com/cover.png");
  assertEquals(jsonLdOf(toolkitPage), [{
    "@context": "https://schema.org",
    "@type": "Course",
    name: "Resume Toolkit",
    description: "Write a resume that gets read.",
    provider: {
      "@type": "Organization",
      name: "Career Community",
      url: `${t.origin}/`,
      logo: `${t.origin}/share.png`,
    },
    image: "https://cdn.example.com/cover.png",
    url: `${t.origin}/toolkits/${toolkit.id}`,
    offers: {
      "@type": "Offer",
      price: 499,
      priceCurrency: "INR",
      category: "Paid",
      availability: "https://schema.org/InStock",
      url: `${t.origin}/toolkits/${toolkit.id}`,
    },
  }]);

  const post = await createPost(t, admin, { title: "How I got my first internship", content: "Line one\n\nLine two" });
  const postPage = await page(t, `/ungatekeep/${post.id}`);
  assertEquals(metaContent(postPage, "og:type"), "article");
  assertEquals(jsonLdOf(postPage), [{
    "@context": "https://schema.org",
    "@type": "Article",
    headline: "How I got my first internship",
    description: "Line one\nLine two",
    datePublished: post.publishedAt,
    dateModified: post.updatedAt,
    author: { "@type": "Person", name: "Asha Admin" },
    publisher: {
      "@type": "Organization",
      name: "Career Community",
      url: `${t.origin}/`,
      logo: `${t.origin}/share.png`,
    },
    mainEntityOfPage: `${t.origin}/ungatekeep/${post.id}`,
    commentCount: 0,
  }]);
});

Deno.test("a guest's kept internship page changes its JobPosting when the data changes", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const internship = await postInternship(t, member, { deadline: dayFromToday(3) });
  assertEquals(jsonLdOf(await page(t, `/internships/${internship.id}`)).length, 1);
  const patch = await t.json(
    "PUT",
    `/api/internships/${internship.id}`,
    { body: { deadline: dayFromToday(-2) }, headers: member.headers },
  );
  assertEquals(patch.status, 200);
  assertEquals(jsonLdOf(await page(t, `/internships/${internship.id}`)), []);
});

Deno.test("a list page's canonical URL keeps its page and category, and drops search and filters", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const canonical = async (path: string) =>
    (await page(t, path)).querySelector('link[rel="canonical"]')?.getAttribute("href");
  const admin = await createTestUser(t, "admin");
  // Lists long enough for each offset below: a page past the end is 404, not a page with a canonical link.
  await postInternships(t, member, Array.from({ length: 16 }, (_, i) => ({ title: `Role ${i}`, tags: ["react"] })));
  for (let i = 0; i < 14; i++) await submitOpportunity(t, member, { title: `AI Hack ${i}`, type: "hackathon" });
  for (let i = 0; i < 26; i++) await createPost(t, admin, { title: `Guide ${i}`, tag: "resources" });
  const cases: [string, string][] = [
    ["/internships?offset=10", "/internships?offset=10"],
    ["/internships?offset=10&limit=20", "/internships?offset=10"],
    ["/internships?offset=15", "/internships?offset=10"],
    ["/internships?tags=react&offset=10", "/internships"],
    ["/internships?search=design", "/internships"],
    ["/opportunities?offset=12", "/opportunities?offset=12"],
    ["/opportunities?offset=13", "/opportunities?offset=12"],
    ["/opportunities?type=hackathon&offset=12", "/opportunities?type=hackathon&offset=12"],
    ["/opportunities?type=hackathon&search=ai&offset=12", "/opportunities"],
    ["/ungatekeep?tag=resources&offset=20", "/ungatekeep?tag=resources&offset=20"],
    ["/ungatekeep?tag=resources&offset=25", "/ungatekeep?tag=resources&offset=20"],
    ["/ungatekeep?offset=0", "/ungatekeep"],
    ["/toolkits?utm_source=whatsapp", "/toolkits"],
  ];
  for (const [path, expected] of cases) assertEquals(await canonical(path), `${t.origin}${expected}`, path);
});
