/**
 * A student with a year's applications (300 here, 1,500 once): what they read is read by the page, not all they ever
 * sent (docs/performance.md, Student space benchmark). Reads are counted (`tests/helpers/kv_reads.ts`), never timed.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type KvReads, kvReads } from "@/tests/helpers/kv_reads.ts";
import { applicant } from "@/tests/fixtures/applications.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { applyTo } from "@/lib/applications/applications.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { MAX_SAVED } from "@/lib/saved/schema.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { MyApplication } from "@/lib/applications/schema.ts";

const APPLICATIONS = 300;

/**
 * `count` internships taking applications here, and a student who applied to each, 20 at a time (oldest first in the
 * listings' order, up to ties within a batch); answers both.
 */
async function heavyApplicant(t: TestApp, count: number): Promise<{ student: TestUser; listings: InternshipView[] }> {
  const owner = await createTestUser(t, "member");
  const listings: InternshipView[] = [];
  for (let i = 0; i < count; i += 100) {
    const items = Array.from(
      { length: Math.min(100, count - i) },
      (_, j) => internshipInput({ title: `Intern ${i + j}`, applyMode: "platform", deadline: "2099-12-31" }),
    );
    listings.push(...await createInternships(t.kv, owner.user, items));
  }
  const student = await applicant(t, "Keen Student");
  for (let i = 0; i < listings.length; i += 20) {
    await Promise.all(
      listings.slice(i, i + 20).map((listing) =>
        applyTo(t.kv, { internshipId: listing.id, applicant: student.user, body: { answers: [], coverNote: "Hello" } })
      ),
    );
  }
  return { student, listings };
}

/** What was read of the person index since `from` (a `reads.keys.length` and `reads.lists.length` taken before). */
function personReads(reads: KvReads, from: { keys: number; lists: number }): { keys: number; lists: number } {
  const isPerson = (key: readonly unknown[]) => key[0] === "applications_by_person";
  return {
    keys: reads.keys.slice(from.keys).filter(isPerson).length,
    lists:
      reads.lists.slice(from.lists).filter(({ selector }) =>
        isPerson("prefix" in selector ? selector.prefix : (selector as { start: Deno.KvKey }).start)
      ).length,
  };
}

const mark = (reads: KvReads) => ({ keys: reads.keys.length, lists: reads.lists.length });

Deno.test("saved ids answer `applied` for the internships asked about, read by key, not the person's every one", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { student, listings } = await heavyApplicant(t, APPLICATIONS);
  const [other] = await createInternships(t.kv, (await createTestUser(t, "member")).user, [internshipInput()]);
  const shown = [...listings.slice(0, 19), other];
  const before = mark(reads);
  const res = await t.fetch(`/api/me/saved/ids?internships=${shown.map((listing) => listing.id)}`, {
    headers: student.headers,
  });
  assertEquals(res.status, 200);
  const { applied } = await res.json();
  assertEquals(Object.keys(applied).sort(), listings.slice(0, 19).map((listing) => listing.id).sort());
  assertEquals(personReads(reads, before), { keys: 20, lists: 0 }, "the 20 cards' entries, by key");

  const tooMany = listings.slice(0, 101).map((listing) => listing.id).join(",");
  const refused = await t.fetch(`/api/me/saved/ids?internships=${tooMany}`, { headers: student.headers });
  assertEquals(refused.status, 400);
  assertEquals((await refused.json()).error[0].path, ["internships"]);
});

/** The application records (`["applications", id]`) read since `from`. */
function recordReads(reads: KvReads, from: { keys: number }): number {
  return reads.keys.slice(from.keys).filter((key) => key[0] === "applications").length;
}

/** `GET path` as `who`: status and JSON body. */
async function getJson(t: TestApp, who: TestUser, path: string) {
  const res = await t.fetch(path, { headers: who.headers });
  return { status: res.status, body: await res.json() };
}

/** The ids of the applications a tracker page shows, in its order. */
const shownIds = (html: string) => [...html.matchAll(/<li id="application-([^"]+)"/g)].map((m) => m[1]);
/** The address of a tracker link named `text`, or undefined. */
const linkTo = (html: string, text: string) =>
  html.match(new RegExp(`<a href="([^"]+)"[^>]*>${text}</a>`))?.[1].replaceAll("&amp;", "&");

Deno.test("the API answers a page of 20 newest first, reading its records only; nextCursor walks them all once", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { student } = await heavyApplicant(t, APPLICATIONS);
  const walked: MyApplication[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const before = mark(reads);
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const { status, body } = await getJson(t, student, `/api/me/applications${query}`);
    assertEquals(status, 200);
    assertEquals(body.applications.length, 20);
    assert(recordReads(reads, before) <= 21, `page ${pages}: ${recordReads(reads, before)} records read`);
    walked.push(...body.applications);
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  assertEquals(pages, APPLICATIONS / 20);
  assertEquals(new Set(walked.map((application) => application.id)).size, APPLICATIONS);
  const order = walked.map(({ createdAt, id }) => `${createdAt}~${id}`);
  assertEquals(order, [...order].sort().reverse(), "newest first, then by id");

  const big = await getJson(t, student, "/api/me/applications?limit=100");
  assertEquals(big.body.applications.map((a: MyApplication) => a.id), walked.slice(0, 100).map((a) => a.id));
  assertEquals((await getJson(t, student, "/api/me/applications?limit=101")).status, 400);
  assertEquals((await getJson(t, student, "/api/me/applications?cursor=nope")).status, 400);

  const withdrawn = [walked[5], walked[150], walked[290]];
  for (const { id } of withdrawn) {
    const res = await t.json("POST", `/api/me/applications/${id}/withdraw`, { headers: student.headers });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const first = await getJson(t, student, "/api/me/applications?status=withdrawn&limit=2");
  assertEquals(first.body.applications.map((a: MyApplication) => a.id), [withdrawn[0].id, withdrawn[1].id]);
  const next = `/api/me/applications?status=withdrawn&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`;
  const second = await getJson(t, student, next);
  assertEquals([second.body.applications.map((a: MyApplication) => a.id), second.body.nextCursor], [
    [withdrawn[2].id],
    null,
  ]);
});

Deno.test("the tracker shows 20 applications, its older ones by a plain link, and reads the page's only", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { student } = await heavyApplicant(t, APPLICATIONS);
  const all = [];
  for (
    let cursor = "";
    all.length < 60;
    cursor = `&cursor=${encodeURIComponent(all.at(-1)!.createdAt)}~${all.at(-1)!.id}`
  ) {
    all.push(...(await getJson(t, student, `/api/me/applications?limit=20${cursor}`)).body.applications);
  }
  const ids = all.map((application: MyApplication) => application.id);

  const before = mark(reads);
  const res = await t.fetch("/me/tracker", { headers: student.headers });
  assertEquals(res.status, 200);
  const first = await res.text();
  assert(recordReads(reads, before) <= 21, `${recordReads(reads, before)} application records read`);
  assertEquals(shownIds(first), ids.slice(0, 20));
  assertEquals(linkTo(first, "Newest applications"), undefined, "the newest page has no way back");
  const older = linkTo(first, "Older applications")!;
  assert(older.startsWith("/me/tracker?applications-from="), older);

  const second = await (await t.fetch(older, { headers: student.headers })).text();
  assertEquals(shownIds(second), ids.slice(20, 40));
  assertEquals(linkTo(second, "Newest applications"), "/me/tracker#applications-heading");
  const third = await (await t.fetch(linkTo(second, "Older applications")!, { headers: student.headers })).text();
  assertEquals(shownIds(third), ids.slice(40, 60));
  const inHindi = new URL(older, t.origin);
  inHindi.searchParams.set("lang", "hi");
  const hindi = await (await t.fetch(inHindi.href, { headers: student.headers })).text();
  assert(hindi.includes(">पुराने आवेदन</a>") && hindi.includes(">सबसे नए आवेदन</a>"), "both links in Hindi");

  // A form on a later page comes back to it.
  const from = new URL(older, t.origin).searchParams.get("applications-from")!;
  assert(second.includes(`<input type="hidden" name="applications-from" value="${from}"/>`), "the forms carry it");
  const withdrawn = await postForm(t, student, `/me/applications/${ids[25]}/withdraw`, { "applications-from": from });
  assertEquals(withdrawn.status, 303);
  const back = withdrawn.headers.get("location")!;
  await withdrawn.body?.cancel();
  const again = await (await t.fetch(back, { headers: student.headers })).text();
  assertEquals(shownIds(again), ids.slice(20, 40));
  assert(
    again.includes("Your application is withdrawn: the poster no longer sees your answers, cover note or resume."),
  );

  const last = `/me/tracker?applications-from=${encodeURIComponent(`${all.at(-1)!.createdAt}~${all.at(-1)!.id}`)}`;
  const tail = await (await t.fetch(last, { headers: student.headers })).text();
  assertEquals(shownIds(tail)[0], ids[59]);
  const nonsense = await (await t.fetch("/me/tracker?applications-from=nope", { headers: student.headers })).text();
  assertEquals(shownIds(nonsense), ids.slice(0, 20), "a place that is none shows the newest");
});

/**
 * What was read since `from` (a `mark`) of the applications (keys, never timings): the lists of the person's entries
 * (`applications_by_person`), the entries listed of their entries by when they were sent
 * (`applications_sent_by_person…`), the person entries read by key and the application records read.
 */
function readsSince(reads: KvReads, from: { keys: number; lists: number }) {
  const first = (selector: Deno.KvListSelector) =>
    ("prefix" in selector ? selector.prefix : (selector as { start: Deno.KvKey }).start)[0] as string;
  const lists = reads.lists.slice(from.lists);
  const keys = reads.keys.slice(from.keys);
  return {
    personLists: lists.filter(({ selector }) => first(selector) === "applications_by_person").length,
    sentListed: lists.filter(({ selector }) => first(selector).startsWith("applications_sent_by_person"))
      .reduce((sum, list) => sum + list.listed, 0),
    personKeys: keys.filter((key) => key[0] === "applications_by_person").length,
    records: keys.filter((key) => key[0] === "applications").length,
  };
}

/** Every application `who` reads from `path` (a query string of `/api/me/applications`), following `nextCursor`. */
async function walk(t: TestApp, who: TestUser, path: string): Promise<MyApplication[]> {
  const found: MyApplication[] = [];
  for (let cursor = "";;) {
    const { body } = await getJson(t, who, `${path}${cursor}`);
    found.push(...body.applications);
    if (!body.nextCursor) return found;
    cursor = `&cursor=${encodeURIComponent(body.nextCursor)}`;
  }
}

/** What a page shows: the API's answer, or the tracker's applications, its links and its saved rows. */
async function shown(t: TestApp, who: TestUser, path: string): Promise<unknown> {
  if (path.startsWith("/api/")) return await getJson(t, who, path);
  const html = await (await t.fetch(path, { headers: who.headers })).text();
  return {
    applications: shownIds(html),
    older: linkTo(html, "Older applications"),
    newest: linkTo(html, "Newest applications"),
    saved: [...html.matchAll(/id="tracker-([^"]+)"/g)].map((m) => m[1]),
  };
}

const MANY = 1_500;

Deno.test("at 1,500 applications a page, a later page and a status's page read what they show, once backfilled", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { student } = await heavyApplicant(t, MANY);
  const all = await walk(t, student, "/api/me/applications?limit=100");
  assertEquals(all.length, MANY);
  for (const { id } of [all[5], all[700], all[1400]]) {
    const res = await t.json("POST", `/api/me/applications/${id}/withdraw`, { headers: student.headers });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const at = (i: number) => encodeURIComponent(`${all[i].createdAt}~${all[i].id}`);
  const pages = [
    "/api/me/applications",
    `/api/me/applications?cursor=${at(739)}`,
    "/api/me/applications?status=withdrawn&limit=2",
    `/api/me/applications?status=withdrawn&limit=2&cursor=${at(700)}`,
    "/me/tracker",
    `/me/tracker?applications-from=${at(740)}`,
  ];
  // Before the backfill: the old read, the person's entries listed whole.
  const answers = [];
  for (const path of pages) answers.push(await shown(t, student, path));
  const before = mark(reads);
  await shown(t, student, pages[0]);
  assertEquals(readsSince(reads, before).personLists, 1, "the old read lists the person's every entry");
  assert(reads.lists.at(-1)!.listed === MANY);

  const job = findJob("applications-sent-index")!;
  assertEquals(await runJob(job, t.services), { job: "applications-sent-index", indexed: MANY });
  assertEquals(await runJob(job, t.services), { job: "applications-sent-index", indexed: 0 });
  // Each page: its places and records; the tracker also its saved items' person entries by key (at most the 500 a
  // person keeps), whatever the person applied to.
  const bounds = [[21, 0], [21, 0], [3, 0], [3, 0], [21, MAX_SAVED], [21, MAX_SAVED]];
  for (const [i, path] of pages.entries()) {
    const from = mark(reads);
    assertEquals(await shown(t, student, path), answers[i], path);
    const read = readsSince(reads, from);
    const [page, saved] = bounds[i];
    assertEquals(read.personLists, 0, path);
    assert(
      read.sentListed <= page && read.records <= page && read.personKeys <= saved,
      `${path}: ${JSON.stringify(read)}`,
    );
  }
});
