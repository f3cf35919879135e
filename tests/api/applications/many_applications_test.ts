/**
 * A student with a year's applications (300 here): what they read is read by the page, not all they ever sent
 * (docs/performance.md, Student space benchmark). Reads are counted (`tests/helpers/kv_reads.ts`), never timed.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type KvReads, kvReads } from "@/tests/helpers/kv_reads.ts";
import { applicant } from "@/tests/fixtures/applications.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { applyTo } from "@/lib/applications/applications.ts";
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
  assert(again.includes("Your application is updated."));

  const last = `/me/tracker?applications-from=${encodeURIComponent(`${all.at(-1)!.createdAt}~${all.at(-1)!.id}`)}`;
  const tail = await (await t.fetch(last, { headers: student.headers })).text();
  assertEquals(shownIds(tail)[0], ids[59]);
  const nonsense = await (await t.fetch("/me/tracker?applications-from=nope", { headers: student.headers })).text();
  assertEquals(shownIds(nonsense), ids.slice(0, 20), "a place that is none shows the newest");
});
