/**
 * Resumes (docs/decisions.md, Applications, "Resumes"): each person keeps one PDF, recognised by its bytes
 * (`file-type`), at most 2 MB, stored in the object store that post images use and served only to its owner (and,
 * as the copy an application holds, to that application's poster and admins). Uploading again replaces it.
 *
 * A stored file never changes, so an application "copies" the resume by holding its own reference to the file: a later
 * replacement or deletion of the person's resume only drops the person's reference, and the bytes go when the last
 * reference does. Each reference is a key of its own, so applying and replacing never contend on a shared counter.
 *
 * Keys (owned by this module only):
 * - `["resumes", userId]` → `ResumeRecord`
 * - `["resume_file_refs", fileId, holder]` → true, one per holder of the file: `user:{userId}` for the person's own
 *   resume, `application:{id}` for a copy an application holds.
 */
import { ConflictError, InvalidInputError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { type User, userKey } from "@/lib/users/users.ts";
import type { ObjectStore, StoredObject } from "@/lib/files/object_store.ts";
import { readableText } from "@/lib/text.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Largest resume, in bytes (2 MB). */
export const MAX_RESUME_BYTES = 2 * 1024 * 1024;
/** The answer to a file whose bytes are not a PDF (an empty one too). */
export const RESUME_NOT_PDF = REFUSALS.resumeNotPdf;
/** The answer to a file larger than `MAX_RESUME_BYTES`, and to an upload's body over its limit. */
export const RESUME_TOO_LARGE = REFUSALS.resumeTooLarge;
/** The answer to an upload without a file. */
export const RESUME_MISSING = REFUSALS.resumeMissing;
/** The refusal of a resume save that kept losing to concurrent changes of the person's resume. */
export const RESUME_CHANGED = REFUSALS.resumeChanged;
/** The answer to a request for a resume that is not there. */
export const NO_RESUME = REFUSALS.noResumeUploaded;
/** The content type resumes are stored and served with. */
export const PDF = "application/pdf";
/** Longest file name kept, in characters. */
const NAME_MAX = 200;
/** Attempts of a checked write before it gives up. */
const ATTEMPTS = 20;

/** A resume as answered: the file's name as uploaded, its size in bytes, and when it was uploaded (ISO 8601). */
export interface Resume {
  name: string;
  size: number;
  uploadedAt: string;
}

/** A resume as stored: with the object store id of its bytes. */
export interface ResumeRecord extends Resume {
  fileId: string;
}

/** The copy of a resume an application holds: the same file, name and size. */
export interface ResumeCopy {
  fileId: string;
  name: string;
  size: number;
}

const resumeKey = (userId: string): Deno.KvKey => ["resumes", userId];
const refKey = (fileId: string, holder: string): Deno.KvKey => ["resume_file_refs", fileId, holder];

/** The holder name of a person's own resume. */
const personHolder = (userId: string) => `user:${userId}`;
/** The holder name of an application's copy. */
export const applicationHolder = (applicationId: string) => `application:${applicationId}`;

/** `record` as answered. */
function viewOf({ name, size, uploadedAt }: ResumeRecord): Resume {
  return { name, size, uploadedAt };
}

/**
 * The name a resume is kept under: the last segment of what the browser sent, invisible and control characters and
 * quotes dropped and combining marks capped (`readableText`), at most 200 characters, ending in `.pdf`; `resume.pdf` when nothing is left.
 */
export function resumeName(sent: string): string {
  const base = readableText(sent.split(/[\\/]/).at(-1) ?? "").replace(/[\p{Cc}"]/gu, "").trim();
  if (!base) return "resume.pdf";
  const name = /\.pdf$/i.test(base) ? base : `${base}.pdf`;
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 4)}.pdf`;
}

/**
 * Checks that `bytes` are a PDF (by their bytes, whatever the name or declared type) of at most 2 MB, the size first.
 * @throws InvalidInputError `RESUME_TOO_LARGE` or `RESUME_NOT_PDF`, with the field `file`.
 */
export async function checkResume(bytes: Uint8Array): Promise<void> {
  const refused = (error: string) => new InvalidInputError(error, [{ field: "file", message: `${error}.` }]);
  if (bytes.length > MAX_RESUME_BYTES) throw refused(RESUME_TOO_LARGE);
  if (bytes.length === 0) throw refused(RESUME_NOT_PDF);
  // file-type is loaded with the first upload, not with the server.
  const { fileTypeFromBuffer } = await import("file-type");
  if ((await fileTypeFromBuffer(bytes))?.mime !== PDF) throw refused(RESUME_NOT_PDF);
}

/** `userId`'s resume as stored (value null when none), to check in a write (`copyResumeOps`). */
export async function readResumeEntry(kv: Deno.Kv, userId: string): Promise<Deno.KvEntryMaybe<ResumeRecord>> {
  return await kv.get<ResumeRecord>(resumeKey(userId));
}

/** `userId`'s resume, or null. */
export async function getResume(kv: Deno.Kv, userId: string): Promise<Resume | null> {
  const { value } = await readResumeEntry(kv, userId);
  return value && viewOf(value);
}

/** Deletes the bytes of file `fileId` when no holder refers to it any more. */
async function releaseFile(kv: Deno.Kv, files: ObjectStore, fileId: string): Promise<void> {
  for await (const _ of kv.list({ prefix: ["resume_file_refs", fileId] }, { limit: 1 })) return;
  await files.delete(fileId);
}

/**
 * Makes `next` `userId`'s resume (null: none), dropping the person's reference to the old file in the same write,
 * checked against the resume as read and, when it sets one, against the user's record, so a resume never lands
 * after the account's deletion (docs/decisions.md, Data rights, "Writes in flight during a deletion"). Returns the
 * record replaced.
 * @throws UnauthenticatedError when it sets one and the user is gone; ConflictError after 20 lost races.
 */
async function replaceResume(
  kv: Deno.Kv,
  { userId, next }: { userId: string; next: ResumeRecord | null },
): Promise<ResumeRecord | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [current, user] = await Promise.all([readResumeEntry(kv, userId), kv.get<User>(userKey(userId))]);
    if (next && !user.value) throw new UnauthenticatedError();
    const op = next ? kv.atomic().check(user) : kv.atomic();
    if ((await replaceOps(op, { userId, current, next }).commit()).ok) return current.value;
  }
  throw new ConflictError(RESUME_CHANGED);
}

/** Adds to `op` what makes `next` `userId`'s resume (null: none) in place of `current` (as read; checked). */
function replaceOps(
  op: Deno.AtomicOperation,
  { userId, current, next }: { userId: string; current: Deno.KvEntryMaybe<ResumeRecord>; next: ResumeRecord | null },
): Deno.AtomicOperation {
  op.check(current);
  if (current.value) op.delete(refKey(current.value.fileId, personHolder(userId)));
  if (next) op.set(resumeKey(userId), next).set(refKey(next.fileId, personHolder(userId)), true);
  else op.delete(resumeKey(userId));
  return op;
}

/**
 * Checks `bytes` (`checkResume`), stores them and makes them `userId`'s resume under `name` (`resumeName`), replacing
 * any earlier one (whose bytes go unless an application holds them).
 * @throws InvalidInputError `RESUME_TOO_LARGE` or `RESUME_NOT_PDF`; ConflictError after lost races (nothing changed).
 */
export async function uploadResume(
  kv: Deno.Kv,
  files: ObjectStore,
  upload: { userId: string; name: string; bytes: Uint8Array },
): Promise<Resume> {
  const { resume, settle } = await stageResume(kv, files, upload);
  await settle(true);
  return resume;
}

/**
 * `uploadResume` for a resume sent with something that may still be refused (an application): the upload is made the
 * person's resume, but the earlier resume's bytes are kept until `settle(made)` says whether that something was made.
 * `settle(true)` lets them go as `uploadResume` does; `settle(false)` puts the earlier resume back (unless the person's
 * resume changed again meanwhile) and lets the upload's bytes go, so a refused application leaves the resume as it was.
 * @throws as `uploadResume`.
 */
export async function stageResume(
  kv: Deno.Kv,
  files: ObjectStore,
  { userId, name, bytes }: { userId: string; name: string; bytes: Uint8Array },
): Promise<{ resume: Resume; settle: (made: boolean) => Promise<void> }> {
  await checkResume(bytes);
  const stored = await files.put(bytes, PDF);
  const record: ResumeRecord = {
    fileId: stored.id,
    name: resumeName(name),
    size: stored.size,
    uploadedAt: stored.createdAt,
  };
  let previous: ResumeRecord | null;
  try {
    previous = await replaceResume(kv, { userId, next: record });
  } catch (error) {
    await files.delete(stored.id);
    throw error;
  }
  const settle = async (made: boolean) => {
    if (!made) {
      const current = await readResumeEntry(kv, userId);
      // Put back only over this upload: a resume saved meanwhile (another tab) stays.
      if (current.value?.fileId === record.fileId) {
        await replaceOps(kv.atomic(), { userId, current, next: previous }).commit();
      }
      await releaseFile(kv, files, record.fileId);
    }
    if (previous) await releaseFile(kv, files, previous.fileId);
  };
  return { resume: viewOf(record), settle };
}

/**
 * Deletes `userId`'s resume (its bytes go unless an application holds them). Returns false when there was none.
 * @throws ConflictError after lost races.
 */
export async function deleteResume(kv: Deno.Kv, files: ObjectStore, userId: string): Promise<boolean> {
  const previous = await replaceResume(kv, { userId, next: null });
  if (previous) await releaseFile(kv, files, previous.fileId);
  return previous !== null;
}

/**
 * `userId`'s resume with its bytes, for serving.
 * @throws NotFoundError `NO_RESUME` when there is none (or its bytes are gone).
 */
export async function resumeFile(
  kv: Deno.Kv,
  files: ObjectStore,
  userId: string,
): Promise<{ resume: Resume; file: StoredObject }> {
  const { value } = await readResumeEntry(kv, userId);
  const file = value && await files.get(value.fileId);
  if (!value || !file) throw new NotFoundError(NO_RESUME);
  return { resume: viewOf(value), file };
}

/**
 * Adds to `op` a copy of the resume `entry` (as read, with a value) for `holder` (`applicationHolder`): checked against
 * the resume as read, so a resume replaced or deleted meanwhile fails the write. Returns the copy.
 */
export function copyResumeOps(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntry<ResumeRecord>,
  holder: string,
): ResumeCopy {
  const { fileId, name, size } = entry.value;
  op.check(entry).set(refKey(fileId, holder), true);
  return { fileId, name, size };
}

/** The bytes of a copy, or null when they are gone. */
export async function copiedResumeFile(files: ObjectStore, copy: ResumeCopy): Promise<StoredObject | null> {
  return await files.get(copy.fileId);
}

/**
 * Drops the copies `copies` (each a file and its holder), and the bytes of each file no one holds any more. Each
 * reference is dropped on its own (idempotent), so any number fit KV's limits.
 */
export async function dropResumeCopies(
  kv: Deno.Kv,
  files: ObjectStore,
  copies: readonly { fileId: string; holder: string }[],
): Promise<void> {
  for (let i = 0; i < copies.length; i += 500) {
    const op = kv.atomic();
    for (const { fileId, holder } of copies.slice(i, i + 500)) op.delete(refKey(fileId, holder));
    await op.commit();
  }
  for (const fileId of new Set(copies.map((copy) => copy.fileId))) await releaseFile(kv, files, fileId);
}
