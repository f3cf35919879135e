/**
 * Certificates of completion (docs/decisions.md, Money operations, "Certificates"; docs/api.md,
 * Money operations).
 *
 * A buyer who has completed every lesson of a toolkit they own gets one certificate, issued in the same atomic
 * write that records the last lesson's progress, checked against the learner's certificate index as read, so
 * two completions at once issue one. Its `id` is a random UUID (unguessable: the public page's address) and its
 * `serial` is `CERT-<yyyy>-<n>`, `yyyy` the calendar year of issue (UTC) and `n` from 1 per year, taken in the
 * same write (never reused or skipped). A refund revokes it (`revokedAt`); completing the toolkit again after
 * buying it again issues a new one. The name and title are kept as issued.
 *
 * Keys (owned by this module only):
 * - `["certificates", id]` → `CertificateRecord`
 * - `["certificates_by_user", userId, toolkitId]` → id of the learner's latest certificate of the toolkit
 * - `["certificates_of_user", userId, id]` → toolkitId, every certificate of the learner
 * - `["certificate_sequence", yyyy]` → the last serial number issued that year
 * - `["certificates_removed", id]` → `true`: the id of a certificate deleted with its holder's account, kept with
 *   nothing about the person, so its public page can say the certificate is no longer available (410) rather than
 *   that the address is wrong (404)
 */

import { getManyChunked } from "@/lib/kv/get_many.ts";

/** A certificate as the API and the public page show it. */
export interface Certificate {
  id: string;
  serial: string;
  userName: string;
  toolkitTitle: string;
  toolkitId: string;
  issuedAt: string;
  revokedAt: string | null;
}

/** A certificate as stored: also whose it is. */
export interface CertificateRecord extends Certificate {
  userId: string;
}

const certificateKey = (id: string): Deno.KvKey => ["certificates", id];
const byUserKey = (userId: string, toolkitId: string): Deno.KvKey => ["certificates_by_user", userId, toolkitId];
const ofUserKey = (userId: string, id: string): Deno.KvKey => ["certificates_of_user", userId, id];
const sequenceKey = (year: number): Deno.KvKey => ["certificate_sequence", year];
const removedKey = (id: string): Deno.KvKey => ["certificates_removed", id];

/** The public page of a certificate. */
export function certificatePath(id: string): string {
  return `/certificates/${id}`;
}

/** The API shape of a record. */
export function certificateView(record: CertificateRecord): Certificate {
  const { userId: _u, ...view } = record;
  return view;
}

/**
 * Adds to `op` the issue of `learner`'s certificate of `toolkit` at `at`, unless they hold one that is not
 * revoked (then nothing is added and null returned). Checked against the index and the serial sequence as read;
 * the caller retries its write on a lost race.
 */
export async function issueCertificateOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { learner, toolkit, at }: {
    learner: { id: string; name: string };
    toolkit: { id: string; title: string };
    at: string;
  },
): Promise<Certificate | null> {
  const index = await kv.get<string>(byUserKey(learner.id, toolkit.id));
  if (index.value) {
    const held = (await kv.get<CertificateRecord>(certificateKey(index.value))).value;
    if (held && held.revokedAt === null) return null;
  }
  const year = new Date(at).getUTCFullYear();
  const sequence = await kv.get<number>(sequenceKey(year));
  const next = (sequence.value ?? 0) + 1;
  const record: CertificateRecord = {
    id: crypto.randomUUID(),
    serial: `CERT-${year}-${next}`,
    userId: learner.id,
    userName: learner.name,
    toolkitId: toolkit.id,
    toolkitTitle: toolkit.title,
    issuedAt: at,
    revokedAt: null,
  };
  op.check(index, sequence)
    .set(sequence.key, next)
    .set(certificateKey(record.id), record)
    .set(index.key, record.id)
    .set(ofUserKey(learner.id, record.id), toolkit.id);
  return certificateView(record);
}

/** Adds to `op` the revocation at `at` of `userId`'s certificate of `toolkitId`, if they hold one not revoked. */
export async function revokeCertificateOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, toolkitId, at }: { userId: string; toolkitId: string; at: string },
): Promise<void> {
  const index = await kv.get<string>(byUserKey(userId, toolkitId));
  if (!index.value) return;
  const entry = await kv.get<CertificateRecord>(certificateKey(index.value));
  if (!entry.value || entry.value.revokedAt !== null) return;
  op.check(entry).set(entry.key, { ...entry.value, revokedAt: at });
}

/**
 * What the address of certificate `id` holds: the certificate, `"removed"` when it was deleted with its holder's
 * account (nothing about them is kept), or null when no certificate ever had it. One round trip.
 */
export async function findCertificate(kv: Deno.Kv, id: string): Promise<Certificate | "removed" | null> {
  if (id.length > 100) return null;
  const [record, removed] = await kv.getMany<[CertificateRecord, true]>([certificateKey(id), removedKey(id)]);
  if (record.value) return certificateView(record.value);
  return removed.value ? "removed" : null;
}

/** `userId`'s certificate of `toolkitId` that is not revoked, or null. */
export async function certificateOf(kv: Deno.Kv, userId: string, toolkitId: string): Promise<Certificate | null> {
  const index = await kv.get<string>(byUserKey(userId, toolkitId));
  const record = index.value ? (await kv.get<CertificateRecord>(certificateKey(index.value))).value : null;
  return record && record.revokedAt === null ? certificateView(record) : null;
}

/** Every certificate of `userId` (revoked ones too), newest first. */
export async function certificatesOf(kv: Deno.Kv, userId: string): Promise<Certificate[]> {
  const ids: string[] = [];
  for await (const entry of kv.list<string>({ prefix: ["certificates_of_user", userId] })) {
    ids.push(String(entry.key[2]));
  }
  const entries = await getManyChunked<CertificateRecord>(kv, ids.map(certificateKey));
  const found = entries.flatMap(({ value }) => value ? [certificateView(value)] : []);
  return found.sort((a, b) => b.issuedAt.localeCompare(a.issuedAt));
}

/**
 * Deletes every certificate of `userId` (account deletion; docs/decisions.md, Data rights), in bounded batches;
 * idempotent. Each id is remembered as removed (`["certificates_removed", id]`, no other data), so a shared link says
 * the certificate is no longer available.
 */
export async function deleteCertificatesOf(kv: Deno.Kv, userId: string): Promise<void> {
  for (;;) {
    const entries: Deno.KvEntry<string>[] = [];
    for await (const entry of kv.list<string>({ prefix: ["certificates_of_user", userId] }, { limit: 200 })) {
      entries.push(entry);
    }
    if (entries.length === 0) return;
    const op = kv.atomic();
    for (const entry of entries) {
      const id = String(entry.key[2]);
      op.delete(entry.key).delete(certificateKey(id)).delete(byUserKey(userId, entry.value)).set(removedKey(id), true);
    }
    await op.commit();
  }
}
