/** Identifiers and secret tokens. */
import { Buffer } from "node:buffer";

/** A random token of 32 bytes, base64url (43 characters); used for sessions and e-mail links. */
export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** The SHA-256 of `text` as lower-case hex; only this is stored for secret tokens. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(digest).toString("hex");
}
