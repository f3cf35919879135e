import { assertEquals } from "@/tests/helpers/assert.ts";
import type { User } from "@/lib/users/users.ts";
import { canManage, canModerate, canPost, canRead } from "./policy.ts";

const as = (id: string, role: User["role"]) => ({ id, role }) as User;
const user = as("u", "user");
const member = as("m", "member");
const admin = as("a", "admin");
const listing = { userId: "m", isActive: true, deleted: false };

Deno.test("canPost: members and admins, not users or guests", () => {
  assertEquals([null, user, member, admin].map(canPost), [false, false, true, true]);
});

Deno.test("canManage: the owner or an admin; a former member's listing only admins", () => {
  assertEquals([null, user, member, admin].map((v) => canManage(v, listing)), [false, false, true, true]);
  assertEquals([member, admin].map((v) => canManage(v, { userId: null })), [false, true]);
});

Deno.test("canModerate: admins only", () => {
  assertEquals([null, user, member, admin].map(canModerate), [false, false, false, true]);
});

Deno.test("canRead: an active listing anyone; an inactive one admins, and its owner outside the API", () => {
  const inactive = { ...listing, isActive: false };
  assertEquals([null, user, member, admin].map((v) => canRead(v, listing, "api")), [true, true, true, true]);
  assertEquals([null, user, member, admin].map((v) => canRead(v, inactive, "api")), [false, false, false, true]);
  assertEquals([null, user, member, admin].map((v) => canRead(v, inactive, "owner")), [false, false, true, true]);
  assertEquals([member, admin].map((v) => canRead(v, { ...listing, deleted: true }, "owner")), [false, false]);
});
