import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { createTestApp, createTestUser } from "../../helpers/app.ts";
import { submit } from "./helpers.ts";

/** Parses iCalendar text (RFC 5545): unfolds lines, splits name, parameters and value. */
function parseIcs(text: string): { name: string; params: string[]; value: string }[] {
  assert(!/(?<!\r)\n/.test(text), "every line ends with CRLF");
  const unfolded = text.replace(/\r\n[ \t]/g, "");
  const lines = unfolded.split("\r\n");
  assertEquals(lines.pop(), "");
  return lines.map((line) => {
    const colon = line.indexOf(":");
    assert(colon > 0, line);
    const [name, ...params] = line.slice(0, colon).split(";");
    return { name, params, value: line.slice(colon + 1) };
  });
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c) => (c === "n" || c === "N" ? "\n" : c));
}

Deno.test("Add to calendar: a valid .ics event over the dates, text fields escaped, lines folded", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const title = "Hack; build, ship\\repeat";
  const description = "Line one\nLine two, with commas; and semicolons " + "long ".repeat(30);
  const o = await submit(t, member, {
    title,
    description,
    location: "Hall 3, IIT Bombay",
    startDate: "2030-12-30",
    endDate: "2030-12-31",
  });
  const res = await t.fetch(`/opportunities/${o.id}/calendar`);
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/calendar/);
  assertMatch(res.headers.get("content-disposition") ?? "", /attachment; filename="opportunity-.*\.ics"/);
  const raw = await res.text();
  for (const line of raw.split("\r\n")) assert(new TextEncoder().encode(line).length <= 75, line);
  const props = parseIcs(raw);
  const names = props.map((p) => p.name);
  assertEquals(names[0], "BEGIN");
  assertEquals(props[0].value, "VCALENDAR");
  assertEquals(props.at(-1)!.value, "VCALENDAR");
  for (const required of ["VERSION", "PRODID", "UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"]) {
    assertEquals(names.filter((n) => n === required).length, 1, required);
  }
  const get = (name: string) => props.find((p) => p.name === name)!;
  assertEquals(get("VERSION").value, "2.0");
  assertEquals(get("DTSTART").params, ["VALUE=DATE"]);
  assertEquals(get("DTSTART").value, "20301230");
  assertEquals(get("DTEND").value, "20310101");
  assertMatch(get("DTSTAMP").value, /^\d{8}T\d{6}Z$/);
  assertEquals(get("SUMMARY").value, "Hack\\; build\\, ship\\\\repeat");
  assertEquals(unescapeText(get("SUMMARY").value), title);
  assertEquals(unescapeText(get("LOCATION").value), "Hall 3, IIT Bombay");
  assert(unescapeText(get("DESCRIPTION").value).startsWith(description.trim()));
});

Deno.test("Add to calendar: a pending opportunity's file is 404 for guests, served to its owner", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const o = await submit(t, user);
  const guest = await t.fetch(`/opportunities/${o.id}/calendar`);
  assertEquals(guest.status, 404);
  await guest.body?.cancel();
  const owner = await t.fetch(`/opportunities/${o.id}/calendar`, { headers: user.headers });
  assertEquals(owner.status, 200);
  await owner.body?.cancel();
});
