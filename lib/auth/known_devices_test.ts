import { assertEquals } from "@/tests/helpers/assert.ts";
import { createUser, endSessionsPatch, updateUser } from "@/lib/users/users.ts";
import { isKnownDevice, knownDevicesOf, rememberDevice } from "./known_devices.ts";

const DEVICE = "d".repeat(43);

Deno.test("a device is known until the account's sessions are ended, and again once it signs in anew", async () => {
  await using kv = await Deno.openKv(":memory:");
  const user = await createUser(kv, { name: "Asha", email: "asha@example.com", emailVerified: true, role: "user" });
  assertEquals(await isKnownDevice(kv, "asha@example.com", DEVICE), false);
  await rememberDevice(kv, { userId: user.id, email: user.email, deviceId: DEVICE });
  assertEquals(await isKnownDevice(kv, "Asha@Example.com", DEVICE), true);
  assertEquals(await isKnownDevice(kv, "ravi@example.com", DEVICE), false, "known to this e-mail only");
  await updateUser(kv, user.id, endSessionsPatch(user));
  assertEquals(await isKnownDevice(kv, "asha@example.com", DEVICE), false, "a reset or sign-out elsewhere forgets it");
  await rememberDevice(kv, { userId: user.id, email: user.email, deviceId: DEVICE });
  assertEquals(await isKnownDevice(kv, "asha@example.com", DEVICE), true);
  assertEquals((await knownDevicesOf(kv, user.id)).length, 1, "one browser, one device");
});

Deno.test("a sign-in that lands after the account is gone remembers nothing naming the person", async () => {
  await using kv = await Deno.openKv(":memory:");
  await rememberDevice(kv, { userId: crypto.randomUUID(), email: "gone@example.com", deviceId: DEVICE });
  const keys = [];
  for await (const entry of kv.list({ prefix: [] })) keys.push(entry.key);
  assertEquals(keys, []);
  assertEquals(await isKnownDevice(kv, "gone@example.com", DEVICE), false);
});
