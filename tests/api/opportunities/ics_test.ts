/**
 * "Add to calendar": `GET /opportunities/{id}/calendar.ics` is a valid RFC 5545 file, checked by
 * parsing it (unfold, split properties, unescape): CRLF line ends, lines of at most 75 octets,
 * one all-day VEVENT whose DTEND is the day after the end date, and text fields that survive
 * commas, semicolons, backslashes, line breaks and non-ASCII text. A closed opportunity has no calendar entry: its file's
 * address answers 303 to its page.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";

interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Parses iCalendar text into properties; throws on what RFC 5545 does not allow. */
function parseIcs(text: string): Property[] {
  assert(text.endsWith("\r\n"), "ends with CRLF");
  assert(!/[^\r]\n/.test(text), "every line break is CRLF");
  for (const line of text.split("\r\n")) {
    assert(new TextEncoder().encode(line).length <= 75, `line over 75 octets: ${line}`);
  }
  const unfolded = text.replace(/\r\n[ \t]/g, "").split("\r\n").filter(Boolean);
  return unfolded.map((line) => {
    const colon = line.indexOf(":");
    assert(colon > 0, `no value: ${line}`);
    const [name, ...params] = line.slice(0, colon).split(";");
    assertMatch(name, /^[A-Z-]+$/);
    return {
      name,
      params: Object.fromEntries(params.map((p) => p.split("=") as [string, string])),
      value: line.slice(colon + 1),
    };
  });
}

/** An RFC 5545 TEXT value unescaped. */
function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

Deno.test("the calendar file is one valid all-day event whose text fields round-trip", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const title = "Hack, Build; Ship \\ Repeat — हैकाथॉन";
  const description = "Line one, with commas; and semicolons.\nLine two: \\backslash\\ and a long tail " +
    "x".repeat(120);
  const opportunity = await submitOpportunity(t, member, {
    title,
    description,
    location: "IIT Bombay, Powai; Mumbai",
    type: "hackathon",
    startDate: `${NEXT_YEAR}-12-30`,
    endDate: `${NEXT_YEAR}-12-31`,
    link: "https://hack.example.com/register",
    organizer: "Tech, Inc.",
  });

  const file = await t.fetch(`/opportunities/${opportunity.id}/calendar.ics`);
  assertEquals(file.status, 200);
  assertEquals(file.headers.get("content-type"), "text/calendar; charset=utf-8");
  assertMatch(file.headers.get("content-disposition") ?? "", /^attachment; filename="Hack-Build-Ship-Repeat.*\.ics"$/);
  const props = parseIcs(await file.text());
  const names = props.map((p) => p.name);
  assertEquals(names.filter((n) => n === "BEGIN"), ["BEGIN", "BEGIN"]);
  assertEquals(props.filter((p) => p.name === "BEGIN").map((p) => p.value), ["VCALENDAR", "VEVENT"]);
  assertEquals(props.at(-1), { name: "END", params: {}, value: "VCALENDAR" });
  const one = (name: string) => {
    const found = props.filter((p) => p.name === name);
    assertEquals(found.length, 1, name);
    return found[0];
  };
  assertEquals(one("VERSION").value, "2.0");
  assert(one("PRODID").value);
  assertEquals(one("UID").value, `${opportunity.id}@career-community`);
  assertMatch(one("DTSTAMP").value, /^\d{8}T\d{6}Z$/);
  assertEquals(one("DTSTART"), { name: "DTSTART", params: { VALUE: "DATE" }, value: `${NEXT_YEAR}1230` });
  assertEquals(
    one("DTEND"),
    { name: "DTEND", params: { VALUE: "DATE" }, value: `${NEXT_YEAR + 1}0101` },
    "the day after the end",
  );
  assertEquals(unescapeText(one("SUMMARY").value), title);
  assertEquals(unescapeText(one("LOCATION").value), "IIT Bombay, Powai; Mumbai");
  const text = unescapeText(one("DESCRIPTION").value);
  assert(text.startsWith(description), text);
  assert(text.includes("Organizer: Tech, Inc."));
  assertEquals(one("URL").value, "https://hack.example.com/register");
  for (const p of props.filter((p) => ["SUMMARY", "DESCRIPTION", "LOCATION"].includes(p.name))) {
    assert(!/(^|[^\\])[,;]/.test(p.value.replace(/\\\\/g, "")), `unescaped , or ; in ${p.name}`);
  }
});

Deno.test("the calendar file's own words are in the reader's language", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const opportunity = await submitOpportunity(t, member, { organizer: "Tech, Inc." });
  const description = async (query: string, headers: Record<string, string> = {}) => {
    const file = await t.fetch(`/opportunities/${opportunity.id}/calendar.ics${query}`, { headers });
    assertEquals(file.headers.get("vary"), "Accept-Language, Cookie");
    return unescapeText(parseIcs(await file.text()).find((p) => p.name === "DESCRIPTION")!.value);
  };
  const hindi = await description("?lang=hi");
  assert(hindi.includes("आयोजक: Tech, Inc.") && !hindi.includes("Organizer"), hindi);
  assert((await description("", { "accept-language": "hi-IN,hi;q=0.9" })).includes("आयोजक: Tech, Inc."));
  assert((await description("?lang=en")).includes("Organizer: Tech, Inc."));
});

Deno.test("the calendar file follows the page's read rule: an unpublished one only for its owner and admins", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const other = await createTestUser(t);
  const opportunity = await submitOpportunity(t, user, {
    title: "Pending Ideathon",
    type: "ideathon",
    startDate: `${NEXT_YEAR}-01-01`,
    endDate: `${NEXT_YEAR}-01-01`,
  });
  const path = `/opportunities/${opportunity.id}/calendar.ics`;
  assertEquals((await t.fetch(path)).status, 404);
  assertEquals((await t.fetch(path, { headers: other.headers })).status, 404);
  const own = await t.fetch(path, { headers: user.headers });
  assertEquals(own.status, 200);
  const props = parseIcs(await own.text());
  assertEquals(props.find((p) => p.name === "DTEND")?.value, `${NEXT_YEAR}0102`);
  assertEquals(props.find((p) => p.name === "LOCATION"), undefined);
});

Deno.test("a closed opportunity has no calendar file: its address leads to its page, which says it closed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const closed = await submitOpportunity(t, admin, {
    title: "Winter Hack",
    startDate: "2024-01-10",
    endDate: "2024-01-12",
  });
  for (const headers of [{}, admin.headers]) {
    const file = await t.fetch(`/opportunities/${closed.id}/calendar.ics`, { headers, redirect: "manual" });
    assertEquals(file.status, 303);
    assertEquals(file.headers.get("location"), `/opportunities/${closed.id}`);
    await file.body?.cancel();
  }
  const page = await t.fetch(`/opportunities/${closed.id}`);
  assertEquals(page.status, 200);
  assert(!(await page.text()).includes("calendar.ics"), "the page offers no calendar entry");
});
