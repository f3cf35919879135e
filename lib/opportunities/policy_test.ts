import { assertEquals } from "@/tests/helpers/assert.ts";
import type { User } from "@/lib/users/users.ts";
import { canRead, canReview, publishesAtOnce } from "./policy.ts";

/** A person with a verified address (an admin without one has none of the role's powers: `isAdmin`). */
const as = (id: string, role: User["role"]) => ({ id, role, emailVerified: true }) as User;
const user = as("u", "user");
const member = as("m", "member");
const admin = as("a", "admin");

Deno.test("publishesAtOnce: a member's or an admin's submission skips review, a user's waits", () => {
  assertEquals([user, member, admin].map(publishesAtOnce), [false, true, true]);
});

Deno.test("canReview: admins only", () => {
  assertEquals([null, user, member, admin].map(canReview), [false, false, false, true]);
});

Deno.test("canRead: a published one anyone; one awaiting review or rejected its submitter and admins", () => {
  const published = { isVerified: true, isActive: true, userId: "u" };
  const pending = { ...published, isVerified: false };
  const rejected = { ...published, isActive: false };
  const held = {
    ...published,
    moderation: {
      status: "held" as const,
      reasons: ["Asks applicants to pay"],
      heldAt: null,
      decidedAt: null,
      note: null,
    },
  };
  assertEquals([null, user, member, admin].map((v) => canRead(v, published)), [true, true, true, true]);
  for (const state of [pending, rejected, held]) {
    assertEquals([null, user, member, admin].map((v) => canRead(v, state)), [false, true, false, true]);
  }
  assertEquals(canRead(user, { ...pending, userId: null }), false, "a former member's submission");
});
