/**
 * A person's applications by when they were sent (docs/decisions.md, Applications, "The tracker follows"; Background
 * work, "Index backfills"): every write keeps the entries, the `applications-sent-index` job fills them for the
 * applications sent before, and until it is done the tracker's pages read the person's entries whole, so a half-done
 * backfill answers as a done one.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { applicant } from "@/tests/fixtures/applications.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { applyTo, forgetApplicant } from "@/lib/applications/applications.ts";
import { SENT_INDEX_BACKFILL, SENT_INDEX_PROGRESS } from "@/lib/applications/store.ts";
import { runBackfill } from "@/lib/kv/backfill.ts";
import type { ApplicationRecord, ApplicationStatus, MyApplication } from "@/lib/applications/schema.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";

const INDEXES = ["applications_sent_by_person", "applications_sent_by_person_status"];

/** The ids of every application `who` reads from `/api/me/applications` (of `status`), 7 a page, `nextCursor` on. */
async function walked(t: TestApp, who: TestUser, status?: ApplicationStatus): Promise<string[]> {
  const ids: string[] = [];
  for (let cursor = "";;) {
    const res = await t.fetch(`/api/me/applications?limit=7${status ? `&status=${status}` : ""}${cursor}`, {
      headers: who.headers,
    });
    assertEquals(res.status, 200);
    const body = await res.json();
    ids.push(...body.applications.map((application: MyApplication) => application.id));
    if (!body.nextCursor) return ids;
    cursor = `&cursor=${encodeURIComponent(body.nextCursor)}`;
  }
}

/** The ids of `who`'s applications (of `status`) as stored, newest first (then the greater id): what a walk reads. */
async function stored(t: TestApp, who: TestUser, status?: ApplicationStatus): Promise<string[]> {
  const records = (await Array.fromAsync(t.kv.list<ApplicationRecord>({ prefix: ["applications"] })))
    .map(({ value }) => value)
    .filter((record) => record.applicantId === who.user.id && (!status || record.status === status));
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
    .map((record) => record.id);
}

/** The entries by when sent of `userId` (none: everyone's), both indexes. */
async function entries(t: TestApp, userId?: string): Promise<number> {
  let count = 0;
  for (const index of INDEXES) {
    for await (const _ of t.kv.list({ prefix: userId ? [index, userId] : [index] })) count++;
  }
  return count;
}

Deno.test("a half-done backfill of a person's applications by when sent answers right; every write keeps them", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const owner = await createTestUser(t, "member");
  const listings = await createInternships(
    t.kv,
    owner.user,
    Array.from({ length: 131 }, (_, i) => internshipInput({ title: `Intern ${i}`, applyMode: "platform" })),
  );
  const [student, other] = [await applicant(t, "Keen Student"), await applicant(t, "Other Student")];
  const send = (who: TestUser, i: number) =>
    applyTo(t.kv, { internshipId: listings[i].id, applicant: who.user, body: { answers: [], coverNote: "Hi" } });
  const sent = [];
  for (let i = 0; i < 120; i += 20) {
    sent.push(...await Promise.all(Array.from({ length: 20 }, (_, j) => send(student, i + j))));
  }
  for (let i = 120; i < 130; i++) await send(other, i);
  const move = async (id: string, who: TestUser, path: string, body: unknown, method = "PATCH") => {
    const res = await t.json(method, `/api/${path}applications/${id}${method === "POST" ? "/withdraw" : ""}`, {
      body,
      headers: who.headers,
    });
    assertEquals(res.status, 200, await res.clone().text());
    await res.body?.cancel();
  };
  await move(sent[3].id, owner, "", { status: "rejected" });

  // As an earlier version stored them: no entries by when sent, no backfill yet.
  for (const index of INDEXES) for await (const { key } of t.kv.list({ prefix: [index] })) await t.kv.delete(key);
  const statuses = [undefined, "applied", "withdrawn", "rejected"] as const;
  const check = async (when: string) => {
    for (const status of statuses) {
      assertEquals(await walked(t, student, status), await stored(t, student, status), `${when}: ${status ?? "all"}`);
    }
  };
  await check("no backfill");

  // A run cut off after its first write (50 of the 130 applications).
  const run = runBackfill(t.kv, SENT_INDEX_BACKFILL, { giveWay: () => Promise.reject(new Error("cut off")) });
  await assertRejects(() => run, Error, "cut off");
  const progress = (await t.kv.get<{ after: string; done: boolean }>(SENT_INDEX_PROGRESS)).value!;
  assertEquals(progress.done, false);
  const half = await entries(t);
  assert(half > 0 && half < 2 * 130, `${half} entries after one write`);

  // Writes meanwhile keep the entries: a new application, withdrawals and a rejection, of applications indexed or not.
  const newest = await send(student, 130);
  await move(sent[0].id, student, "me/", undefined, "POST");
  await move(sent[119].id, student, "me/", undefined, "POST");
  await move(sent[60].id, owner, "", { status: "rejected" });
  await check("half done");

  const job = findJob("applications-sent-index")!;
  // The rest after the cursor (the new application too, when its id sorts after it).
  const rest = (await Array.fromAsync(t.kv.list({ prefix: ["applications"] }))).filter(({ key }) =>
    (key[1] as string) > progress.after
  );
  assert(rest.length >= 131 - 50 - 1);
  assertEquals(await runJob(job, t.services), { job: "applications-sent-index", indexed: rest.length });
  const before = reads.lists.length;
  await check("done");
  assert(
    reads.lists.slice(before).every(({ selector }) =>
      !("prefix" in selector) || selector.prefix[0] !== "applications_by_person"
    ),
    "once done, the pages read the entries by when sent",
  );
  assertEquals((await walked(t, student))[0], newest.id);
  assertEquals(await entries(t, student.user.id), 2 * 121, "one of each index per application");

  // The account's deletion takes them with the person's applications; the other person's stay.
  await forgetApplicant(t.kv, t.services.files, student.user.id);
  assertEquals(await entries(t, student.user.id), 0);
  assertEquals(await entries(t, other.user.id), 2 * 10);
  assertEquals(await walked(t, other), await stored(t, other));
});
