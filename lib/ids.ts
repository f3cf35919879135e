/** Identifiers and secret tokens. */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";

/** A random token of 32 bytes, base64url (43 characters); used for sessions and e-mail links. */
export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/**
 * The SHA-256 of `text` (UTF-8) as lower-case hex; only this is stored for secret tokens. Hashed in place
 * (`node:crypto`), not through `crypto.subtle`, whose promise and thread hop cost several times the hash of a
 * token: every signed-in request hashes its session cookie (docs/performance.md, Scale).
 */
export function sha256Hex(text: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(text, "utf8").digest("hex"));
}
