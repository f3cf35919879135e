/**
 * Known devices (docs/decisions.md, Auth, "Sign-in limits"): a browser that signed in to an account with its password
 * carries a random device id (the `known_device` cookie, `lib/http/cookies.ts`), and KV keeps the id's SHA-256 under
 * the account's e-mail for `KNOWN_DEVICE_TTL_MS` from its last sign-in. A password sign-in try from a device known to
 * that e-mail is counted per device instead of per e-mail, so a stranger who spends an e-mail's tries does not lock
 * its owner out of the phone they always sign in on.
 *
 * Keys (owned by this module only), each with `expireIn` `KNOWN_DEVICE_TTL_MS`:
 * - `["known_devices", sha256Hex(normalized e-mail), sha256Hex(deviceId)]` → `{userId}`: one read tells whether a
 *   device is known to an e-mail, the same read whether or not the e-mail has an account;
 * - `["known_devices_by_user", userId, sha256Hex(deviceId)]` → `{emailHash, since, lastSignInAt}` (ISO 8601), for the
 *   account's export and deletion.
 */
import { sha256Hex } from "@/lib/ids.ts";
import { normalizeEmail } from "@/lib/users/users.ts";

/** How long a device stays known after its last password sign-in (ms): 180 days. */
export const KNOWN_DEVICE_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/** A known device as the account's export lists it: since when and when it last signed in (ISO 8601). */
export interface KnownDevice {
  since: string;
  lastSignInAt: string;
}

const deviceKey = (emailHash: string, deviceHash: string): Deno.KvKey => ["known_devices", emailHash, deviceHash];
const userDeviceKey = (userId: string, deviceHash: string): Deno.KvKey => [
  "known_devices_by_user",
  userId,
  deviceHash,
];

/**
 * Whether `deviceId` (a well-formed cookie value, or undefined) signed in to the account of `email` with its password
 * within the last 180 days.
 */
export async function isKnownDevice(kv: Deno.Kv, email: string, deviceId: string | undefined): Promise<boolean> {
  if (!deviceId) return false;
  const key = deviceKey(await sha256Hex(normalizeEmail(email)), await sha256Hex(deviceId));
  return (await kv.get(key)).value !== null;
}

/**
 * Records that `deviceId` signed in to account `userId` (e-mail `email`) at `now`, for another 180 days; keeps when it
 * first did.
 */
export async function rememberDevice(
  kv: Deno.Kv,
  { userId, email, deviceId, now = new Date() }: { userId: string; email: string; deviceId: string; now?: Date },
): Promise<void> {
  const [emailHash, deviceHash] = [await sha256Hex(normalizeEmail(email)), await sha256Hex(deviceId)];
  const known = await kv.get<{ since: string }>(userDeviceKey(userId, deviceHash));
  const at = now.toISOString();
  await kv.atomic()
    .set(deviceKey(emailHash, deviceHash), { userId }, { expireIn: KNOWN_DEVICE_TTL_MS })
    .set(userDeviceKey(userId, deviceHash), { emailHash, since: known.value?.since ?? at, lastSignInAt: at }, {
      expireIn: KNOWN_DEVICE_TTL_MS,
    })
    .commit();
}

/** The devices known to account `userId`, oldest first (for the account's export; the ids are never shown). */
export async function knownDevicesOf(kv: Deno.Kv, userId: string): Promise<KnownDevice[]> {
  const devices: KnownDevice[] = [];
  for await (const entry of kv.list<KnownDevice>({ prefix: ["known_devices_by_user", userId] })) {
    devices.push({ since: entry.value.since, lastSignInAt: entry.value.lastSignInAt });
  }
  return devices.sort((a, b) => a.since.localeCompare(b.since));
}

/** Forgets every device known to account `userId` (account deletion); idempotent, in writes of 400 keys at most. */
export async function forgetKnownDevices(kv: Deno.Kv, userId: string): Promise<void> {
  let op = kv.atomic();
  let count = 0;
  for await (const entry of kv.list<{ emailHash: string }>({ prefix: ["known_devices_by_user", userId] })) {
    op.delete(entry.key).delete(deviceKey(entry.value.emailHash, entry.key[2] as string));
    if (++count % 200 === 0) {
      await op.commit();
      op = kv.atomic();
    }
  }
  await op.commit();
}
