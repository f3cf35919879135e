import { assertEquals } from "@/tests/helpers/assert.ts";
import type { User } from "@/lib/users/users.ts";
import { canManage, canModerate, canPost, canRead, isClosedOn } from "./policy.ts";

/** A person with a verified address (an admin without one has none of the role's powers: `isAdmin`). */
const as = (id: string, role: User["role"]) => ({ id, role, emailVerified: true }) as User;
const user = as("u", "user");
const member = as("m", "member");
const admin = as("a", "admin");
const listing = { userId: "m", isActive: true, deleted: false, withheld: false };

Deno.test("canPost: members and admins, not users or guests", () => {
  assertEquals([null, user, member, admin].map(canPost), [false, false, true, true]);
});

Deno.test("canManage: the owner or an admin; a former member's listing only admins", () => {
  assertEquals([null, user, member, admin].map((v) => canManage(v, listing)), [false, false, true, true]);
  assertEquals([member, admin].map((v) => canManage(v, { userId: null })), [false, true]);
});

Deno.test("canModerate: admins only, and only once their address is verified", () => {
  assertEquals([null, user, member, admin].map(canModerate), [false, false, false, true]);
  const unverified = { ...admin, emailVerified: false };
  assertEquals([canModerate(unverified), canManage(unverified, { userId: "someone" })], [false, false]);
});

Deno.test("canRead: an active listing anyone; an inactive one admins, and its owner outside the API", () => {
  const inactive = { ...listing, isActive: false };
  assertEquals([null, user, member, admin].map((v) => canRead(v, listing, "api")), [true, true, true, true]);
  assertEquals([null, user, member, admin].map((v) => canRead(v, inactive, "api")), [false, false, false, true]);
  assertEquals([null, user, member, admin].map((v) => canRead(v, inactive, "owner")), [false, false, true, true]);
  assertEquals([member, admin].map((v) => canRead(v, { ...listing, deleted: true }, "owner")), [false, false]);
});

Deno.test("canRead: a listing withheld by moderation only its owner and admins, in both audiences", () => {
  const held = { ...listing, withheld: true };
  for (const audience of ["api", "owner"] as const) {
    assertEquals([null, user, member, admin].map((v) => canRead(v, held, audience)), [false, false, true, true]);
  }
  const heldInactive = { ...held, isActive: false };
  assertEquals([null, user, member, admin].map((v) => canRead(v, heldInactive, "api")), [false, false, false, true]);
});

Deno.test("isClosedOn: closed from the IST day after the deadline's; never without a deadline", () => {
  const today = "2026-11-25";
  assertEquals(["2026-11-24", "2026-11-25", "2026-11-26"].map((d) => isClosedOn(d, today)), [true, false, false]);
  // 18:29 UTC on the 24th is 23:59 IST that day; 18:30 UTC is already the 25th in India.
  assertEquals(["2026-11-24T18:29:00Z", "2026-11-24T18:30:00Z"].map((d) => isClosedOn(d, today)), [true, false]);
  assertEquals(isClosedOn(null, today), false);
});
