/**
 * Account deletion's long steps at a heavy user's sizes (docs/decisions.md, Data rights, "Deletion"): the e-mails, push
 * messages, purchases, applications, posts and reports of a person are forgotten many a commit, not one write per record, the step
 * renews the deletion's lease after each batch and stops when the renewal says another process took the job over;
 * run again, it finishes what is left.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { kvFailingCommits, kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { addCoupon, addToolkit } from "@/tests/fixtures/toolkits.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { answersFor, applicant, QUESTIONS } from "@/tests/fixtures/applications.ts";
import { deleteMailsOf, queueMailOps } from "@/lib/mail/outbox.ts";
import { deletePushMessagesOf, queuePushOps } from "@/lib/push/outbox.ts";
import type { StoredNotification } from "@/lib/notifications/notifications.ts";
import { forgetBuyer, type PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { applyTo, forgetApplicant } from "@/lib/applications/applications.ts";
import type { ApplicationRecord } from "@/lib/applications/schema.ts";
import { createPost, forgetPostAuthor, postsBy } from "@/lib/ungatekeep/posts.ts";
import { PostCreateSchema } from "@/lib/ungatekeep/schema.ts";
import { postBody } from "@/tests/fixtures/posts.ts";
import { fileReport, forgetReporter, reportsBy } from "@/lib/reports/reports.ts";
import { ReportCreateSchema } from "@/lib/reports/schema.ts";
import { deleteUnsubscribeTokensOf, newUnsubscribeToken } from "@/lib/alerts/unsubscribe.ts";

/** A step's run: `renew` as the deletion passes it. */
type Step = (kv: Deno.Kv, renew: () => Promise<void>) => Promise<void>;

/**
 * Runs `step` once with a renewal that says the job was taken over (it must stop with records `left()` still to do),
 * then again to the end, counting commits and renewals: all done (`left()` 0) in at most one commit per `perCommit`
 * records, renewing after each batch.
 */
async function stopsAndFinishes(
  t: TestApp,
  { step, left, total, perCommit }: { step: Step; left: () => Promise<number>; total: number; perCommit: number },
): Promise<void> {
  const takenOver = () => Promise.reject(new Error("taken over"));
  await assertRejects(() => step(t.kv, takenOver), Error, "taken over");
  const after = await left();
  assert(after > 0 && after < total, `${after} of ${total} left after the first batch`);
  let renewals = 0;
  const { kv, commits } = kvFailingCommits(t.kv, () => false);
  await step(kv, () => Promise.resolve(void renewals++));
  assertEquals(await left(), 0);
  assert(renewals >= 1, `${renewals} renewals`);
  assert(commits() * perCommit <= after, `${commits()} commits for ${after} records`);
}

const count = async (kv: Deno.Kv, prefix: Deno.KvKey) => (await Array.fromAsync(kv.list({ prefix }))).length;

Deno.test("deletion's e-mail and push steps delete many records a commit, renew the lease, and stop when told", async () => {
  await using t = await createTestApp();
  const ravi = await createTestUser(t, "user", { name: "Ravi" });
  const total = 230;
  for (let i = 0; i < total; i += 10) {
    const op = t.kv.atomic();
    for (let j = i; j < i + 10; j++) {
      queueMailOps(op, {
        to: ravi.user.email,
        subject: `Digest ${j}`,
        text: "New internships",
        html: "<p>New internships</p>",
        link: "/internships",
        userId: ravi.user.id,
      });
      const notification = { id: crypto.randomUUID(), type: "reply", title: `Reply ${j}`, body: "Tip", url: "/" };
      queuePushOps(op, { userId: ravi.user.id, notification: notification as StoredNotification }, Date.now());
    }
    assert((await op.commit()).ok);
  }
  const mailKeys = async () =>
    (await Promise.all(["outbox", "outbox_due", "outbox_status", "outbox_by_user"].map((p) => count(t.kv, [p]))))
      .reduce((a, b) => a + b);
  assertEquals(await mailKeys(), total * 4);
  await stopsAndFinishes(t, {
    step: (kv, renew) => deleteMailsOf(kv, ravi.user.id, { renew }),
    left: async () => await count(t.kv, ["outbox_by_user", ravi.user.id]),
    total,
    perCommit: 20,
  });
  assertEquals(await mailKeys(), 0, "each mail's record, due, status and person entries");
  const pushKeys = async () =>
    (await Promise.all(["push_outbox", "push_outbox_due", "push_outbox_by_user"].map((p) => count(t.kv, [p]))))
      .reduce((a, b) => a + b);
  assertEquals(await pushKeys(), total * 3);
  await stopsAndFinishes(t, {
    step: (kv, renew) => deletePushMessagesOf(kv, ravi.user.id, { renew }),
    left: async () => await count(t.kv, ["push_outbox_by_user", ravi.user.id]),
    total,
    perCommit: 20,
  });
  assertEquals(await pushKeys(), 0);
});

Deno.test("deletion's purchase step keeps many purchases a commit without their buyer, renews, and stops when told", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const asha = await createTestUser(t, "user", { name: "Asha" });
  await addCoupon({ t, admin }, { code: "FREEALL", discountValue: 100, perUserLimit: 1000 });
  const total = 60;
  const ids: string[] = [];
  for (let i = 0; i < total; i++) {
    const toolkitId = (await addToolkit({ t, admin }, { title: `Toolkit ${i}` })).id;
    const bought = await initiatePurchase(t.kv, { payments: null, user: asha.user, toolkitId, couponCode: "FREEALL" });
    ids.push(bought.purchase.id);
  }
  const buyers = async () => {
    const records = await Promise.all(ids.map((id) => t.kv.get<PurchaseRecord>(["purchases", id])));
    return records.map((entry) => entry.value!);
  };
  assertEquals((await buyers()).filter((p) => p.userId === asha.user.id && p.paymentStatus === "paid").length, total);
  await stopsAndFinishes(t, {
    step: (kv, renew) => forgetBuyer(kv, asha.user.id, { renew }),
    left: async () => await count(t.kv, ["purchases_by_user", asha.user.id]),
    total,
    perCommit: 10,
  });
  const kept = await buyers();
  assertEquals(kept.filter((p) => p.userId === null && p.paymentStatus === "paid").length, total, "kept, buyer gone");
  assertEquals(kept.filter((p) => p.history.at(-1)?.source === "account deleted").length, total);
  assertEquals(await count(t.kv, ["purchase_owned", asha.user.id]), 0);
  const slots = await Array.fromAsync(t.kv.list<{ userId: string | null }>({ prefix: ["coupon_slots"] }));
  assert(!JSON.stringify(slots).includes(asha.user.id), "no coupon slot names the buyer");
});

Deno.test("deletion's post step keeps many posts a commit without their author, renews, and stops when told", async () => {
  await using t = await createTestApp();
  const [author, other] = [await createTestUser(t, "admin", { name: "Meera" }), await createTestUser(t, "admin")];
  const write = (by: typeof author, title: string) =>
    createPost(t.kv, {
      files: t.services.files,
      author: by.user,
      input: PostCreateSchema.parse(postBody({ title, content: "Advice. ".repeat(400) })),
    });
  const total = 120;
  for (let i = 0; i < total; i++) await write(author, `Post ${i}`);
  await write(other, "Not Meera's");
  await stopsAndFinishes(t, {
    step: (kv, renew) => forgetPostAuthor(kv, author.user.id, { renew }),
    left: async () => await count(t.kv, ["ungatekeep_posts_by_user", author.user.id]),
    total,
    perCommit: 10,
  });
  const posts = await Array.fromAsync(t.kv.list<{ userId: string | null }>({ prefix: ["ungatekeep_posts"] }));
  assertEquals(posts.filter((post) => post.value.userId === null).length, total, "kept, author gone");
  assertEquals((await postsBy(t.kv, other.user.id)).length, 1, "the other author's post is theirs still");
});

Deno.test("deletion's report step keeps many reports a commit without their reporter, renews, and stops when told", async () => {
  await using t = await createTestApp();
  const [admin, reporter] = [await createTestUser(t, "admin"), await createTestUser(t, "user", { name: "Kiran" })];
  const total = 60;
  for (let i = 0; i < total; i++) {
    const post = await createPost(t.kv, {
      files: t.services.files,
      author: admin.user,
      input: PostCreateSchema.parse(postBody({ title: `Post ${i}` })),
    });
    const input = ReportCreateSchema.parse({ kind: "post", id: post.id, reason: "other", details: `Report ${i}` });
    await fileReport(t.kv, reporter.user, input);
  }
  await stopsAndFinishes(t, {
    step: (kv, renew) => forgetReporter(kv, reporter.user.id, { renew }),
    left: async () => await count(t.kv, ["reports_by_reporter", reporter.user.id]),
    total,
    perCommit: 10,
  });
  const reports = await Array.fromAsync(t.kv.list<{ userId: string | null }>({ prefix: ["reports"] }));
  assertEquals(reports.filter((report) => report.value.userId === null).length, total, "kept, reporter gone");
  assertEquals(await reportsBy(t.kv, reporter.user.id), []);
});

Deno.test("deletion's report step forgets a reporter its reports' target remembers, two reports of it in one batch", async () => {
  await using t = await createTestApp();
  const [admin, member, reporter] = [
    await createTestUser(t, "admin"),
    await createTestUser(t, "member"),
    await createTestUser(t, "user", { name: "Kiran" }),
  ];
  const [listing] = await addInternships(t, member, [{}]);
  const report = async () => {
    const body = { kind: "internship", id: listing.id, reason: "asks_for_money" };
    const res = await t.json("POST", "/api/reports", { body, headers: reporter.headers });
    assertEquals(res.status, 201);
    await res.body?.cancel();
  };
  // Reported, dismissed (the target's summary remembers the reporter and their mailbox), reported again.
  await report();
  const dismissal = { body: { action: "dismiss" }, headers: admin.headers };
  const dismissed = await t.json("POST", `/api/admin/reports/internship/${listing.id}/resolve`, dismissal);
  assertEquals(dismissed.status, 200);
  await dismissed.body?.cancel();
  await report();
  const summary = async () =>
    (await t.kv.get<{ dismissedReporters?: string[] }>(["report_targets", "internship", listing.id])).value!;
  assert((await summary()).dismissedReporters?.includes(reporter.user.id), "the summary remembers the reporter");
  assert(((await summary()) as { dismissedMailboxes?: string[] }).dismissedMailboxes?.length, "and their mailbox");
  await forgetReporter(t.kv, reporter.user.id);
  assertEquals(await count(t.kv, ["reports_by_reporter", reporter.user.id]), 0);
  assert(!JSON.stringify(await summary()).includes(reporter.user.id), JSON.stringify(await summary()));
  const mailboxes = (await Array.fromAsync(t.kv.list<{ mailbox?: string }>({ prefix: ["reports"] })))
    .map((entry) => entry.value.mailbox);
  assertEquals(mailboxes, [undefined, undefined], "no report keeps its mailbox");
  assertEquals((await summary() as { dismissedMailboxes?: string[] }).dismissedMailboxes, undefined);
});

Deno.test("deletion's application step forgets many applications a commit, renews, and stops when told", async () => {
  await using t = await createTestApp();
  const poster = await createTestUser(t, "member", { name: "Poster" });
  const asha = await applicant(t, "Asha");
  const total = 60;
  const internships = await addInternships(
    t,
    poster,
    Array.from({ length: total }, (_, i) => ({ title: `Intern ${i}`, applyMode: "platform", questions: QUESTIONS })),
  );
  const ids: string[] = [];
  for (const internship of internships) {
    const body = { ...answersFor(internship), coverNote: "Hello!" };
    ids.push((await applyTo(t.kv, { internshipId: internship.id, applicant: asha.user, body })).id);
  }
  await stopsAndFinishes(t, {
    step: (kv, renew) => forgetApplicant(kv, t.services.files, asha.user.id, { renew }),
    left: async () => await count(t.kv, ["applications_by_person", asha.user.id]),
    total,
    perCommit: 5,
  });
  const records = await Promise.all(ids.map((id) => t.kv.get<ApplicationRecord>(["applications", id])));
  const forgotten = records.filter(({ value }) =>
    value?.applicantId === null && value.applicant === null && value.coverNote === "" && value.resume === null &&
    value.status === "withdrawn"
  );
  assertEquals(forgotten.length, total);
});

Deno.test("deletion's application step reads the change logs of a few applications at a time", async () => {
  await using t = await createTestApp();
  const poster = await createTestUser(t, "member", { name: "Poster" });
  const asha = await applicant(t, "Asha");
  const total = 50;
  const internships = await addInternships(
    t,
    poster,
    Array.from({ length: total }, (_, i) => ({ title: `Intern ${i}`, applyMode: "platform", questions: QUESTIONS })),
  );
  const others = 40; // each internship's log holds a day's changes of other applicants
  const now = Date.now();
  for (const internship of internships) {
    const body = { ...answersFor(internship), coverNote: "Hello!" };
    await applyTo(t.kv, { internshipId: internship.id, applicant: asha.user, body });
    const op = t.kv.atomic();
    for (let i = 0; i < others; i++) {
      const change = { status: "applied", createdMs: now, t: "someone else", v: 1 };
      op.set(["applications_log", internship.id, now + i, crypto.randomUUID()], change, { expireIn: 60_000 });
    }
    await op.commit();
  }
  let open = 0, peak = 0, read = 0;
  const kv = new Proxy(t.kv, {
    get(target, name) {
      if (name !== "list") return Reflect.get(target, name).bind(target);
      return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
        const inLog = (selector as { start?: Deno.KvKey }).start?.[0] === "applications_log";
        const entries = target.list(selector, options);
        return (async function* () {
          if (inLog) peak = Math.max(peak, ++open);
          try {
            for await (const entry of entries) {
              if (inLog) read++;
              yield entry;
            }
          } finally {
            if (inLog) open--;
          }
        })();
      };
    },
  });
  await forgetApplicant(kv, t.services.files, asha.user.id);
  assertEquals(await count(t.kv, ["applications_by_person", asha.user.id]), 0);
  assert(read >= total * (others + 1), `every application's log read: ${read} entries`);
  assert(peak <= 5, `at most 5 logs read at once, not ${peak}`);
});

Deno.test("deletion's unsubscribe-link step keeps each commit under KV's 80 KiB of keys for a heavy reader", async () => {
  await using t = await createTestApp();
  const ravi = await createTestUser(t, "user", { name: "Ravi" });
  const total = 450;
  for (let i = 0; i < total; i += 50) {
    const op = t.kv.atomic();
    for (let j = 0; j < 50; j++) {
      (await newUnsubscribeToken({ kind: "alerts", userId: ravi.user.id, alertIds: [] })).write(op);
    }
    assert((await op.commit()).ok);
  }
  assertEquals(await count(t.kv, ["unsubscribe_by_user", ravi.user.id]), total);
  // KV encodes a key as its parts, a string as its UTF-8 bytes between a type byte and a closing byte.
  const bytesOf = (key: Deno.KvKey) => key.reduce((sum: number, part) => sum + String(part).length + 2, 0);
  const commits: number[] = [];
  const measured = kvWithCommits(t.kv, (_n, apply, _sets, keys) => {
    commits.push(keys.reduce((sum, key) => sum + bytesOf(key), 0));
    return apply();
  });
  await deleteUnsubscribeTokensOf(measured, ravi.user.id);
  assertEquals([await count(t.kv, ["unsubscribe_by_user"]), await count(t.kv, ["unsubscribe_tokens"])], [0, 0]);
  assert(commits.every((bytes) => bytes <= 80 * 1024), `keys a commit: ${commits.join(", ")}`);
  assert(commits.length <= 3, `${commits.length} commits for ${total} tokens`);
});
