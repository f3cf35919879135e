import { assertEquals } from "@/tests/helpers/assert.ts";
import type { User } from "@/lib/users/users.ts";
import { canConfirmPurchase, canManageCatalog, canReadLesson, canReadToolkit, canTrackProgress } from "./policy.ts";

/** A person with a verified address (an admin without one has none of the role's powers: `isAdmin`). */
const as = (id: string, role: User["role"]) => ({ id, role, emailVerified: true }) as User;
const user = as("u", "user");
const member = as("m", "member");
const admin = as("a", "admin");

Deno.test("canManageCatalog: admins only", () => {
  assertEquals([null, user, member, admin].map(canManageCatalog), [false, false, false, true]);
});

Deno.test("canReadToolkit: an active one anyone, an inactive one admins", () => {
  assertEquals([null, user, admin].map((v) => canReadToolkit(v, { isActive: true })), [true, true, true]);
  assertEquals([null, user, admin].map((v) => canReadToolkit(v, { isActive: false })), [false, false, true]);
});

Deno.test("canReadLesson: a preview anyone; the others buyers and admins", () => {
  assertEquals(canReadLesson(null, false, { isPreview: true }), true);
  assertEquals(canReadLesson(user, false, { isPreview: false }), false);
  assertEquals(canReadLesson(user, true, { isPreview: false }), true);
  assertEquals(canReadLesson(admin, false, { isPreview: false }), true);
});

Deno.test("canTrackProgress: a signed-in buyer; canConfirmPurchase: the purchase's owner", () => {
  assertEquals([canTrackProgress(null, true), canTrackProgress(user, false), canTrackProgress(user, true)], [
    false,
    false,
    true,
  ]);
  assertEquals([null, user, admin].map((v) => canConfirmPurchase(v, { userId: "u" })), [false, true, false]);
  assertEquals(canConfirmPurchase(user, { userId: null }), false, "a purchase kept after its buyer left");
});
