/**
 * The applicants as a spreadsheet (docs/api.md, Applications; docs/decisions.md, Applications, "The applicants as a
 * spreadsheet"): who may download the CSV (the poster and admins; nobody else; not a poster of a taken-down listing),
 * what it holds (every page of the tab and search, contact details from shortlisting on, nothing a withdrawn applicant
 * sent, answers by question, formulas defused), its header in the reader's language, and the page's link.
 */
import { parse } from "csv-parse/sync";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import {
  applicant,
  applyTo,
  editInternship,
  moderate,
  platformInternship,
  sendApplication,
} from "@/tests/fixtures/applications.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";
import { applyTo as applyThroughDomain, changeMany } from "@/lib/applications/applications.ts";
import { applicantsCsv } from "@/lib/applications/csv_export.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { istToday } from "@/lib/dates.ts";

/** The export of `internshipId` as `who`: its status, headers and rows (header first), or its JSON error. */
async function download(t: TestApp, who: TestUser | undefined, internshipId: string, query = "") {
  const res = await t.fetch(`/api/internships/${internshipId}/applications/export${query}`, {
    headers: who?.headers ?? {},
  });
  if (res.status !== 200) return { status: res.status, error: (await res.json()).error, rows: [], bytes: "" };
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  return {
    status: res.status,
    headers: res.headers,
    bytes: text,
    rows: parse(text, { bom: true }) as string[][],
  };
}

Deno.test("the applicants CSV: the poster's and an admin's; 404 for anyone else, 403 once taken down", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member", { name: "Owner" });
  const listing = await platformInternship(t, owner);
  const asha = await applicant(t, "Asha");
  await applyTo(t, asha, listing);
  const admin = await createTestUser(t, "admin");
  const stranger = await createTestUser(t, "user");
  const own = await download(t, owner, listing.id);
  assertEquals(own.status, 200);
  assertEquals(own.headers?.get("content-type"), "text/csv; charset=utf-8");
  assertEquals(own.headers?.get("cache-control"), "private, no-store");
  assertEquals(
    own.headers?.get("content-disposition"),
    `attachment; filename="applicants-backend-intern-${istToday()}.csv"`,
  );
  assertEquals(own.rows.length, 2, "the header and Asha");
  assertEquals((await download(t, admin, listing.id)).rows.length, 2);
  assertEquals((await download(t, stranger, listing.id)).status, 404);
  assertEquals((await download(t, asha, listing.id)).status, 404, "not the applicant");
  assertEquals((await download(t, undefined, listing.id)).status, 401);
  assertEquals((await download(t, owner, "nope")).status, 404);
  assertEquals((await download(t, owner, listing.id, "?status=hired2")).status, 400);
  await moderate(t, admin, listing.id, "reject");
  const stopped = await download(t, owner, listing.id);
  assertEquals([stopped.status, stopped.error], [
    403,
    "An admin took this listing down: its applications can no longer be moved",
  ]);
  assertEquals((await download(t, admin, listing.id)).rows.length, 2, "an admin still may");
});

Deno.test("the applicants CSV holds every page of the tab and search, as the list shows them", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member", { name: "Owner" });
  const listing = await platformInternship(t, owner);
  const asha = await applicant(t, "Asha Rao");
  const ravi = await applicant(t, "Ravi");
  const gone = await applicant(t, "Gita");
  const mine = await applyTo(t, asha, listing);
  // Applicants write these: a spreadsheet must not run them.
  const risky = await sendApplication(t, ravi, listing.id, {
    answers: [{ questionId: listing.questions[0].id, answer: '=HYPERLINK("http://evil.example","Click")' }],
    coverNote: 'Line one,\n"quoted" line two',
  });
  assertEquals(risky.status, 201);
  const withdrawn = await applyTo(t, gone, listing);
  const back = await t.json("POST", `/api/me/applications/${withdrawn.id}/withdraw`, { headers: gone.headers });
  assertEquals(back.status, 200);
  const shortlist = await t.json("PATCH", `/api/applications/${mine.id}`, {
    body: { status: "shortlisted" },
    headers: owner.headers,
  });
  assertEquals(shortlist.status, 200);
  // Her first question reworded keeps its column; her second, removed, moves to the answers to changed questions.
  await editInternship(t, owner, listing.id, {
    ...internshipBody({ applyMode: "platform" }),
    questions: [{ id: listing.questions[0].id, text: "Why us?", required: true }, {
      text: "Your city",
      required: false,
    }],
  });
  const file = await download(t, owner, listing.id);
  assert(file.bytes.startsWith("\uFEFF"), "a byte order mark, so that Excel reads UTF-8");
  assert(file.bytes.includes("\r\n"), "CRLF line ends");
  const [header, ...rows] = file.rows;
  assertEquals(header, [
    "Applied on (IST)",
    "Status",
    "Name",
    "College or institute",
    "Current role",
    "Field of study",
    "Interests",
    "E-mail",
    "Phone",
    "Cover note",
    "Why us?",
    "Your city",
    "Answers to questions since changed",
    "Resume (opens while you are signed in)",
    "Answer by (IST)",
    "Last change (IST)",
  ]);
  const byName = new Map(rows.map((row) => [row[2], Object.fromEntries(header.map((h, i) => [h, row[i]]))]));
  assertEquals([...byName.keys()], ["Ravi", "Asha Rao", "Gita"], "by status in course order, as the list");
  const a = byName.get("Asha Rao")!;
  assertEquals([a.Status, a["E-mail"]], ["Shortlisted", asha.user.email], "contact details once shortlisted");
  assertEquals(a["Why us?"], "My answer to Why do you want this internship?", "the same question, reworded");
  assertEquals(a["Answers to questions since changed"], "Link to your portfolio: My answer to Link to your portfolio");
  assertEquals(a["Resume (opens while you are signed in)"], `${t.origin}/api/applications/${mine.id}/resume`);
  assert(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(a["Applied on (IST)"]), a["Applied on (IST)"]);
  const r = byName.get("Ravi")!;
  assertEquals(r["E-mail"], "", "no e-mail before shortlisting");
  assertEquals(r["Why us?"], '\'=HYPERLINK("http://evil.example","Click")', "a formula is defused");
  assertEquals(r["Cover note"], 'Line one,\n"quoted" line two', "commas, quotes and lines kept");
  const g = byName.get("Gita")!;
  assertEquals([g.Status, g["Cover note"], g["Why us?"], g["Resume (opens while you are signed in)"]], [
    "Withdrawn",
    "",
    "",
    "",
  ], "nothing a withdrawn applicant sent");
  // The tab and the search narrow it as the list does.
  assertEquals((await download(t, owner, listing.id, "?status=shortlisted")).rows.map((row) => row[2]), [
    "Name",
    "Asha Rao",
  ]);
  assertEquals((await download(t, owner, listing.id, "?search=ravi")).rows.length, 2);
  // In Hindi, the header and the statuses.
  const reader = { ...owner, headers: { ...owner.headers, "accept-language": "hi-IN,hi;q=0.9" } };
  const hindi = await download(t, reader, listing.id, "?status=shortlisted");
  assertEquals([hindi.rows[0][0], hindi.rows[1][1]], ["आवेदन की तारीख़ (IST)", "शॉर्टलिस्ट"]);
});

Deno.test("the applicants CSV has every application past one page of 100, once, though some move meanwhile", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member", { name: "Owner" });
  const listing = await platformInternship(t, owner, { questions: [] });
  const total = 130;
  for (let i = 0; i < total; i += 10) {
    const students = await Promise.all(Array.from({ length: 10 }, (_, j) => applicant(t, `Student ${i + j}`)));
    await Promise.all(
      students.map((student) =>
        applyThroughDomain(t.kv, { internshipId: listing.id, applicant: student.user, body: { answers: [] } })
      ),
    );
  }
  const file = await download(t, owner, listing.id);
  assertEquals(file.rows.length, total + 1);
  assertEquals(new Set(file.rows.slice(1).map((row) => row[2])).size, total, "each once");

  // A co-manager shortlists ten of the first page's applicants while the file is read, after its first records.
  let moved = false;
  const kv = new Proxy(t.kv, {
    get(target, name) {
      if (name !== "getMany") return Reflect.get(target, name).bind(target);
      return async (keys: Deno.KvKey[]) => {
        const entries = await target.getMany(keys);
        if (!moved && keys[0]?.[0] === "applications") {
          moved = true;
          const first = entries.flatMap(({ value }) => value ? [(value as { id: string }).id] : []).slice(0, 10);
          const change = { ids: first, status: "shortlisted" as const, message: null };
          await changeMany(t.kv, { internshipId: listing.id, actor: owner.user, change, appUrl: t.origin });
        }
        return entries;
      };
    },
  });
  const csv = await applicantsCsv(kv, {
    internshipId: listing.id,
    actor: owner.user,
    search: [],
    t: translatorFor("en"),
    appUrl: t.origin,
  });
  const rows = parse(await new Response(csv.body).text(), { bom: true }) as string[][];
  assert(moved);
  assertEquals(rows.length, total + 1);
  assertEquals(new Set(rows.slice(1).map((row) => row[2])).size, total, "each once, none skipped");
});
