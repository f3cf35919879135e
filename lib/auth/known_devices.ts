/**
 * Known devices (docs/decisions.md, Auth, "Sign-in limits"): a browser that signed in to an account with its password
 * carries a random device id (the `known_device` cookie, `lib/http/cookies.ts`), and KV keeps the id's SHA-256 under
 * the account's e-mail for `KNOWN_DEVICE_TTL_MS` from its last sign-in. A password sign-in try from a device known to
 * that e-mail is counted per device instead of per e-mail, so a stranger who spends an e-mail's tries does not lock
 * its owner out of the phone they always sign in on.
 *
 * Keys (owned by this module only), each with `expireIn` `KNOWN_DEVICE_TTL_MS`:
 * - `["known_devices", sha256Hex(normalized e-mail), sha256Hex(deviceId)]` → `{userId, epoch}`: one read tells whether
 *   a device is known to an e-mail, the same read whether or not the e-mail has an account; `epoch` is the user's
 *   session epoch when it last signed in, so a password reset or "sign out everywhere else", which move the epoch on,
 *   make every device unknown again until it signs in anew (docs/decisions.md, Sessions, "Ending sessions");
 * - `["known_devices_by_user", userId, sha256Hex(deviceId)]` → `{emailHash, since, lastSignInAt}` (ISO 8601), for the
 *   account's export and deletion.
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { normalizeEmail, type User, userKey } from "@/lib/users/users.ts";

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

/** Attempts of `rememberDevice` while the user record changes under it. */
const ATTEMPTS = 5;

/**
 * Whether `deviceId` (a well-formed cookie value, or undefined) signed in to the account of `email` with its password
 * within the last 180 days, and no reset or "sign out everywhere else" came since. Only a device known to the e-mail
 * costs a second read (its user's epoch).
 */
export async function isKnownDevice(kv: Deno.Kv, email: string, deviceId: string | undefined): Promise<boolean> {
  if (!deviceId) return false;
  const key = deviceKey(await sha256Hex(normalizeEmail(email)), await sha256Hex(deviceId));
  const known = (await kv.get<{ userId: string; epoch?: number }>(key)).value;
  if (!known) return false;
  const user = (await kv.get<User>(userKey(known.userId))).value;
  return !!user && (known.epoch ?? 0) >= (user.sessionEpoch ?? 0);
}

/**
 * Records that `deviceId` signed in to account `userId` (e-mail `email`) at `now`, for another 180 days, in the user's
 * current session epoch; keeps when it first did. Writes nothing once the user is gone: the write is checked against
 * the user record as read (retried while it changes, then given up: a device not remembered only counts against the
 * e-mail's limit), so a sign-in racing an account deletion leaves no key naming the person.
 */
export async function rememberDevice(
  kv: Deno.Kv,
  { userId, email, deviceId, now = new Date() }: { userId: string; email: string; deviceId: string; now?: Date },
): Promise<void> {
  const [emailHash, deviceHash] = [await sha256Hex(normalizeEmail(email)), await sha256Hex(deviceId)];
  const at = now.toISOString();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [user, known] = await kv.getMany<[User, { since: string }]>([
      userKey(userId),
      userDeviceKey(userId, deviceHash),
    ]);
    if (!user.value) return;
    const epoch = user.value.sessionEpoch ?? 0;
    const since = known.value?.since ?? at;
    const written = await kv.atomic()
      .check(user)
      .set(deviceKey(emailHash, deviceHash), { userId, epoch }, { expireIn: KNOWN_DEVICE_TTL_MS })
      .set(userDeviceKey(userId, deviceHash), { emailHash, since, lastSignInAt: at }, { expireIn: KNOWN_DEVICE_TTL_MS })
      .commit();
    if (written.ok) return;
  }
}

/** The devices known to account `userId`, oldest first (for the account's export; the ids are never shown). */
export async function knownDevicesOf(kv: Deno.Kv, userId: string): Promise<KnownDevice[]> {
  const devices: KnownDevice[] = [];
  for await (const entry of kv.list<KnownDevice>({ prefix: ["known_devices_by_user", userId] })) {
    devices.push({ since: entry.value.since, lastSignInAt: entry.value.lastSignInAt });
  }
  return devices.sort((a, b) => a.since.localeCompare(b.since));
}

/** Forgets every device known to account `userId` (account deletion); idempotent: `deleteListed`. */
export async function forgetKnownDevices(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed<{ emailHash: string }>(
    kv,
    ["known_devices_by_user", userId],
    ({ key, value }) => [deviceKey(value.emailHash, key[2] as string)],
  );
}
