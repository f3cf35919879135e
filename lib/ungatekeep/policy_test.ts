import { assertEquals } from "@/tests/helpers/assert.ts";
import type { User } from "@/lib/users/users.ts";
import { canManagePosts, canReadPublished, hiddenCountFor, isPreviewOnly, visiblePage } from "./policy.ts";
import { GUEST_PREVIEW } from "./tags.ts";

/** A person with a verified address (an admin without one has none of the role's powers: `isAdmin`). */
const as = (id: string, role: User["role"]) => ({ id, role, emailVerified: true }) as User;
const user = as("u", "user");
const admin = as("a", "admin");

Deno.test("a guest sees a preview; canManagePosts: admins only", () => {
  assertEquals([null, undefined, user].map(isPreviewOnly), [true, true, false]);
  assertEquals([null, user, as("m", "member"), admin].map(canManagePosts), [false, false, false, true]);
});

Deno.test("visiblePage: a guest always the first GUEST_PREVIEW posts, a user the page asked for", () => {
  assertEquals(visiblePage(null, 20, 10), { offset: 0, limit: GUEST_PREVIEW });
  assertEquals(visiblePage(user, 20, 10), { offset: 20, limit: 10 });
});

Deno.test("hiddenCountFor: what a guest does not see, never below 0; nothing for a user", () => {
  assertEquals(hiddenCountFor(null, GUEST_PREVIEW + 4), 4);
  assertEquals(hiddenCountFor(null, 1), 0);
  assertEquals(hiddenCountFor(user, 50), 0);
});

Deno.test("canReadPublished: a guest only the posts in a feed's head, a user any", () => {
  assertEquals(canReadPublished(null, 0), true);
  assertEquals(canReadPublished(null, GUEST_PREVIEW - 1), true);
  assertEquals(canReadPublished(null, GUEST_PREVIEW), false);
  assertEquals(canReadPublished(null, undefined), false);
  assertEquals(canReadPublished(user, undefined), true);
});
