/**
 * Saved items and the tracker (docs/api.md, Student space; docs/decisions.md, Student space): `PUT`, `GET`, `DELETE`
 * of `/api/me/saved`, per role, with bad input, the 500-item limit under concurrency, hidden listings and isolation
 * between people.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { addInternships, postInternships } from "@/tests/fixtures/internships.ts";
import { assertHtml, htmlDocument, page } from "@/tests/fixtures/html.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { closingSoon, savedRecordsOf, saveItem } from "@/lib/saved/saved.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { istToday } from "@/lib/dates.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { people } from "@/tests/fixtures/people.ts";

async function put(t: TestApp, who: TestUser | undefined, path: string, body: unknown = {}) {
  const res = await t.json("PUT", `/api/me/saved/${path}`, { body, headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

async function get(t: TestApp, who: TestUser | undefined, path: string) {
  const res = await t.fetch(path, { headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

Deno.test("a guest gets 401 from every /api/me/saved endpoint", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [internship] = await postInternships(t, member, [{}]);
  assertEquals((await put(t, undefined, `internships/${internship.id}`)).status, 401);
  assertEquals((await get(t, undefined, "/api/me/saved")).status, 401);
  assertEquals((await get(t, undefined, "/api/me/saved/ids")).status, 401);
  const del = await t.fetch(`/api/me/saved/internships/${internship.id}`, { method: "DELETE" });
  assertEquals(del.status, 401);
});

Deno.test("PUT saves with status saved, then changes status and note; absent fields keep their value", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [internship] = await postInternships(t, member, [{ title: "Data Intern", deadline: "2099-05-01" }]);
  const saved = await put(t, student, `internships/${internship.id}`);
  assertEquals(saved.status, 200);
  const item = saved.body.item;
  assertEquals([item.kind, item.id, item.status, item.note], ["internships", internship.id, "saved", ""]);
  assertEquals(item.savedAt, item.updatedAt);
  assertEquals(item.statusChangedAt, item.savedAt);
  assertEquals(item.listing.title, "Data Intern");
  assertEquals(item.listing.isClosed, false);
  assertEquals(item.listing.user.id, member.user.id);

  await new Promise((resolve) => setTimeout(resolve, 2));
  const applied = (await put(t, student, `internships/${internship.id}`, { status: "applied" })).body.item;
  assertEquals([applied.status, applied.note, applied.savedAt], ["applied", "", item.savedAt]);
  assert(applied.statusChangedAt > item.statusChangedAt);
  await new Promise((resolve) => setTimeout(resolve, 2));
  const noted = (await put(t, student, `internships/${internship.id}`, { note: "  Referred by Asha  " })).body.item;
  assertEquals([noted.status, noted.note], ["applied", "Referred by Asha"]);
  assertEquals(noted.statusChangedAt, applied.statusChangedAt);
  assert(noted.updatedAt > applied.updatedAt);
  const cleared = (await put(t, student, `internships/${internship.id}`, { note: null })).body.item;
  assertEquals([cleared.status, cleared.note], ["applied", ""]);
  // The same PUT again changes nothing.
  const again = (await put(t, student, `internships/${internship.id}`, { note: "" })).body.item;
  assertEquals(again.updatedAt, cleared.updatedAt);
});

Deno.test("bad input: unknown kind 404, bad status and long note 400, unknown and hidden listings 404", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const [open, inactive, deleted] = await postInternships(t, member, [{}, {}, {}]);
  assertEquals((await put(t, student, `jobs/${open.id}`)).status, 404);
  assertEquals((await t.json("DELETE", `/api/me/saved/jobs/${open.id}`, { headers: student.headers })).status, 404);
  const badStatus = await put(t, student, `internships/${open.id}`, { status: "hired" });
  assertEquals(badStatus.status, 400);
  assertEquals(badStatus.body.error[0].path, ["status"]);
  assertEquals((await put(t, student, `internships/${open.id}`, { note: "x".repeat(501) })).status, 400);
  assertEquals((await put(t, student, `internships/${open.id}`, { note: 5 })).status, 400);
  assertEquals((await put(t, student, `internships/${open.id}`, { note: "x".repeat(500) })).status, 200);
  const malformed = await t.fetch(`/api/me/saved/internships/${open.id}`, {
    method: "PUT",
    headers: { ...student.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(malformed.status, 400);
  assertEquals(await malformed.json(), { error: "Invalid JSON body" });

  const unknown = await put(t, student, `internships/${crypto.randomUUID()}`);
  assertEquals(unknown, { status: 404, body: { error: "Internship not found" } });
  assertEquals(
    (await t.json("PUT", `/api/internships/${inactive.id}`, { body: { isActive: false }, headers: admin.headers }))
      .status,
    200,
  );
  assertEquals((await put(t, student, `internships/${inactive.id}`)).status, 404);
  assertEquals((await t.json("DELETE", `/api/internships/${deleted.id}`, { headers: member.headers })).status, 200);
  assertEquals((await put(t, student, `internships/${deleted.id}`)).status, 404);

  const pending = await submitOpportunity(t, student, "My own pending hack");
  assertEquals(await put(t, student, `opportunities/${pending.id}`), {
    status: 404,
    body: { error: "Opportunity not found" },
  });
  const published = await submitOpportunity(t, member);
  const saved = await put(t, student, `opportunities/${published.id}`, { status: "interviewing" });
  assertEquals(saved.status, 200);
  assertEquals(saved.body.item.listing.title, "Campus Hack");
  assertEquals((await get(t, student, "/api/me/saved?kind=jobs")).status, 400);
  assertEquals((await get(t, student, "/api/me/saved?status=hired")).status, 400);
});

Deno.test("GET lists newest change first with kind and status filters; ids by kind; DELETE is idempotent", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [a, b] = await postInternships(t, member, [{ title: "A" }, { title: "B" }]);
  const o = await submitOpportunity(t, member, "O");
  for (const path of [`internships/${a.id}`, `opportunities/${o.id}`, `internships/${b.id}`]) {
    assertEquals((await put(t, student, path)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await put(t, student, `internships/${a.id}`, { status: "offer" });
  const titles = (items: { listing: { title: string } }[]) => items.map((item) => item.listing.title);
  assertEquals(titles((await get(t, student, "/api/me/saved")).body.items), ["A", "B", "O"]);
  assertEquals(titles((await get(t, student, "/api/me/saved?kind=internships")).body.items), ["A", "B"]);
  assertEquals(titles((await get(t, student, "/api/me/saved?status=saved")).body.items), ["B", "O"]);
  assertEquals(titles((await get(t, student, "/api/me/saved?kind=opportunities&status=offer")).body.items), []);
  const ids = (await get(t, student, "/api/me/saved/ids")).body;
  assertEquals(ids.internships.sort(), [a.id, b.id].sort());
  assertEquals(ids.opportunities, [o.id]);

  for (let i = 0; i < 2; i++) {
    const res = await t.json("DELETE", `/api/me/saved/internships/${a.id}`, { headers: student.headers });
    assertEquals([res.status, await res.json()], [200, { success: true }]);
  }
  assertEquals(titles((await get(t, student, "/api/me/saved")).body.items), ["B", "O"]);
});

Deno.test("a saved item stays with listing null once its listing is deleted, and can still be changed", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [internship] = await postInternships(t, member, [{ title: "Soon gone" }]);
  await put(t, student, `internships/${internship.id}`, { status: "applied" });
  assertEquals((await t.json("DELETE", `/api/internships/${internship.id}`, { headers: member.headers })).status, 200);
  const [item] = (await get(t, student, "/api/me/saved")).body.items;
  assertEquals([item.id, item.status, item.listing], [internship.id, "applied", null]);
  const moved = await put(t, student, `internships/${internship.id}`, { status: "rejected" });
  assertEquals([moved.status, moved.body.item.status, moved.body.item.listing], [200, "rejected", null]);
});

Deno.test("each person sees and changes only their own items", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const alice = await createTestUser(t, "user");
  const bob = await createTestUser(t, "user");
  const [internship] = await postInternships(t, member, [{}]);
  await put(t, alice, `internships/${internship.id}`, { status: "applied", note: "Alice's" });
  assertEquals((await get(t, bob, "/api/me/saved")).body.items, []);
  assertEquals((await get(t, bob, "/api/me/saved/ids")).body, { internships: [], opportunities: [], applied: {} });
  const bobs = await put(t, bob, `internships/${internship.id}`);
  assertEquals([bobs.body.item.status, bobs.body.item.note], ["saved", ""]);
  await t.json("DELETE", `/api/me/saved/internships/${internship.id}`, { headers: bob.headers });
  const [alices] = (await get(t, alice, "/api/me/saved")).body.items;
  assertEquals([alices.status, alices.note], ["applied", "Alice's"]);
});

Deno.test("the 501st save is 400, also when the last saves race; a removal makes room again", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listings = [];
  for (let i = 0; i < 6; i++) {
    listings.push(...await postInternships(t, member, Array.from({ length: 100 }, () => ({}))));
  }
  for (const listing of listings.slice(0, 490)) {
    assertEquals((await put(t, student, `internships/${listing.id}`)).status, 200);
  }
  const racing = await Promise.all(
    listings.slice(490, 520).map((listing) => put(t, student, `internships/${listing.id}`)),
  );
  assertEquals(racing.filter((r) => r.status === 200).length, 10);
  for (const refused of racing.filter((r) => r.status !== 200)) {
    assertEquals(refused, { status: 400, body: { error: "You can save at most 500 items" } });
  }
  assertEquals((await get(t, student, "/api/me/saved")).body.items.length, 500);
  const savedIds: string[] = (await get(t, student, "/api/me/saved/ids")).body.internships;
  const extra = listings.find((listing) => !savedIds.includes(listing.id))!;
  assertEquals((await put(t, student, `internships/${extra.id}`)).status, 400);
  // Changing an item already saved is not a new save.
  assertEquals((await put(t, student, `internships/${savedIds[0]}`, { status: "applied" })).status, 200);
  await t.json("DELETE", `/api/me/saved/internships/${savedIds[1]}`, { headers: student.headers });
  assertEquals((await put(t, student, `internships/${extra.id}`)).status, 200);
});

/** IST day `today` plus `n` days, `YYYY-MM-DD`. */
function dayAfter(today: string, n: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * 40 internships of `member` with descriptions of 4,800 characters (so they fill several record chunks), each saved by
 * `student` in order (the last is the newest change); `deadline(i)` is the i-th one's deadline.
 */
async function savedListings(t: TestApp, member: TestUser, student: TestUser, deadline: (i: number) => string) {
  const description = "What the internship is about. ".repeat(160);
  const listings = await addInternships(
    t,
    member,
    Array.from({ length: 40 }, (_, i) => ({ title: `Intern ${i}`, description, deadline: deadline(i) })),
  );
  for (const listing of listings) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await saveItem(t.kv, { userId: student.user.id, kind: "internships", id: listing.id, change: { note: undefined } });
  }
  return listings;
}

Deno.test("closing soon takes the deadlines from the columns and reads only the records it shows", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const today = istToday();
  const soon: Record<number, number> = { 5: 1, 11: 1, 17: 3, 29: 6, 33: 8 };
  const listings = await savedListings(t, member, student, (i) => dayAfter(today, soon[i] ?? 30));
  await saveItem(t.kv, {
    userId: student.user.id,
    kind: "internships",
    id: listings[11].id,
    change: { status: "applied", note: undefined },
  });

  const reads = kvReads();
  const kv = recordingReads(t.kv, reads);
  const { model } = await internshipStore(kv);
  await opportunityStore(kv);
  const chunks = new Set(listings.map((listing) => model.chunkOfSlot(model.slotOf(listing.id)!)));
  assert(chunks.size >= 4, `the saved listings fill ${chunks.size} record chunks`);
  const records = await savedRecordsOf(kv, student.user.id);
  reads.keys.length = 0;
  const closing = await closingSoon(kv, { records, today });
  assertEquals(closing.map((item) => [item.listing?.title, item.on]), [
    ["Intern 5", dayAfter(today, 1)],
    ["Intern 17", dayAfter(today, 3)],
    ["Intern 29", dayAfter(today, 6)],
  ]);
  const read = new Set(reads.keys.filter((key) => key[0] === "internships_chunks").map((key) => key[1]));
  assert(read.size <= 3, `only the chunks of the three shown are read, not ${read.size}`);
});

Deno.test("the home page reads a person's saved list once, in one batch", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { member, student } = await people(t);
  const listings = await postInternships(t, member, [{ deadline: dayAfter(istToday(), 2) }, {}]);
  for (const listing of listings) await put(t, student, `internships/${listing.id}`);
  reads.lists.length = 0;
  const res = await t.fetch("/", { headers: student.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const saved = reads.lists.filter(({ selector }) =>
    "prefix" in selector && selector.prefix[0] === "saved" && selector.prefix[1] === student.user.id
  );
  assertEquals(saved.map(({ options }) => options.batchSize), [500]);
});

Deno.test("GET /api/me/saved pages with limit and cursor; the default page holds every item", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const listings = await postInternships(t, member, Array.from({ length: 5 }, (_, i) => ({ title: `Intern ${i}` })));
  for (const listing of listings) await put(t, student, `internships/${listing.id}`);
  // The move is the newest change by its time in ms: not in the same millisecond as the last save.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await put(t, student, `internships/${listings[1].id}`, { status: "applied" });
  const all = (await get(t, student, "/api/me/saved")).body;
  assertEquals(all.items.length, 5);
  assertEquals(all.nextCursor, null);
  assertEquals(all.items[0].id, listings[1].id, "newest change first");

  const paged = [];
  let path = "/api/me/saved?limit=2";
  for (let pages = 1;; pages++) {
    const page = (await get(t, student, path)).body;
    assert(page.items.length <= 2);
    paged.push(...page.items);
    if (page.nextCursor === null) {
      assertEquals(pages, 3);
      break;
    }
    path = `/api/me/saved?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  assertEquals(paged, all.items);
  const saved = (await get(t, student, "/api/me/saved?status=saved&limit=3")).body;
  assertEquals(
    saved.items.map((item: { id: string }) => item.id),
    all.items.slice(1, 4).map((item: { id: string }) => item.id),
  );
  const rest = await get(t, student, `/api/me/saved?status=saved&cursor=${encodeURIComponent(saved.nextCursor)}`);
  assertEquals(rest.body, { items: [all.items[4]], nextCursor: null });

  for (const bad of ["limit=0", "limit=501", "limit=x", "cursor=nope", "cursor=2025-01-01T00:00:00.000Z~jobs~1"]) {
    const res = await get(t, student, `/api/me/saved?${bad}`);
    assertEquals(res.status, 400, bad);
    assert(res.body.error, bad);
  }
});

Deno.test("the tracker shows 20 items a status with a plain link to more, and no descriptions", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const listings = await savedListings(t, member, student, () => dayAfter(istToday(), 30));
  await saveItem(t.kv, {
    userId: student.user.id,
    kind: "internships",
    id: listings[0].id,
    change: { status: "offer", note: undefined },
  });
  const newestFirst = listings.slice(1).reverse();
  const rows = (html: string, status: string) => {
    const group = htmlDocument(html).querySelector(`section[aria-labelledby="tracker-${status}"]`)!;
    return {
      ids: [...group.querySelectorAll("li[id^=tracker-]")].map((li) => li.id),
      heading: group.querySelector("h2")!.textContent,
      more: [...group.querySelectorAll("a")].filter((a) => a.textContent!.startsWith("Show")),
    };
  };

  const first = await page(t, "/me/tracker", student);
  assertHtml(first.res);
  assert(!first.html.includes("What the internship is about."), "no description, in the rows or the island's props");
  const saved = rows(first.html, "saved");
  assertEquals(saved.ids, newestFirst.slice(0, 20).map((listing) => `tracker-internships-${listing.id}`));
  assertEquals(saved.heading, "Saved (39)");
  assertEquals(saved.more.map((a) => [a.textContent, a.getAttribute("href")]), [[
    "Show 19 more of Saved",
    `/me/tracker?show-saved=40#tracker-internships-${newestFirst[20].id}`,
  ]]);
  assertEquals(rows(first.html, "offer").ids, [`tracker-internships-${listings[0].id}`]);
  assertEquals(rows(first.html, "offer").more, []);

  const more = await page(t, saved.more[0].getAttribute("href")!.split("#")[0], student);
  assertEquals(rows(more.html, "saved").ids, newestFirst.map((listing) => `tracker-internships-${listing.id}`));
  assertEquals(rows(more.html, "saved").more, []);
  assertEquals(rows((await page(t, "/me/tracker?show-saved=7", student)).html, "saved").ids.length, 20);
});
