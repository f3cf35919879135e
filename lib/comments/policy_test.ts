import { assertEquals } from "@/tests/helpers/assert.ts";
import { canComment, canDelete, canEdit, canModerate } from "./policy.ts";

const author = { id: "a", role: "user" as const, emailVerified: true };
const other = { id: "b", role: "member" as const, emailVerified: true };
const admin = { id: "c", role: "admin" as const, emailVerified: true };
const written = { userId: "a", createdAt: "2026-01-01T10:00:00.000Z", isDeleted: false };
const at = (minutes: number) => Date.parse(written.createdAt) + minutes * 60_000;

Deno.test("canComment: a verified e-mail", () => {
  assertEquals([canComment(author), canComment({ ...author, emailVerified: false })], [true, false]);
});

Deno.test("canEdit: the author, up to 15 minutes after writing, not a placeholder", () => {
  assertEquals(canEdit(author, written, at(15)), true);
  assertEquals(canEdit(author, written, at(15.01)), false);
  assertEquals(canEdit(admin, written, at(1)), false);
  assertEquals(canEdit(author, { ...written, isDeleted: true }, at(1)), false);
});

Deno.test("canDelete and canModerate: the author or an admin", () => {
  assertEquals([canDelete(author, written), canDelete(other, written), canDelete(admin, written)], [true, false, true]);
  assertEquals(canDelete(admin, { ...written, isDeleted: true }), false);
  assertEquals([canModerate(other), canModerate(admin)], [false, true]);
});
