import { assertEquals } from "@/tests/helpers/assert.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { createUser } from "@/lib/users/users.ts";
import { createSession, sessionsOf } from "./sessions.ts";

Deno.test("sessionsOf reads a user's 25 sessions with its getMany calls made together, oldest first", async () => {
  await using kv = await Deno.openKv(":memory:");
  const user = await createUser(kv, { name: "Asha", email: "asha@example.com", emailVerified: true, role: "user" });
  const made = [];
  for (let i = 0; i < 25; i++) made.push((await createSession(kv, user.id)).session);
  const reads = kvReads();
  const sessions = await sessionsOf(recordingReads(kv, reads), user.id);
  assertEquals(
    sessions,
    made.map(({ createdAt, expiresAt }) => ({ createdAt, expiresAt }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
  );
  assertEquals(reads.keys.filter((key) => key[0] === "sessions").length, 25);
  assertEquals(reads.maxInFlight, 3, "the three calls are in flight together, not one after another");
});
