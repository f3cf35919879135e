/**
 * The mailbox behind a reporter's address, by which reports count toward a listing's hold (docs/decisions.md, Trust,
 * "One mailbox, one reporter"): aliases that deliver to one inbox are one reporter.
 */
import { sha256Hex } from "@/lib/ids.ts";

/** Domains whose local part ignores dots (`a.b@gmail.com` is `ab@gmail.com`), and the name they share. */
const DOTLESS_DOMAINS = new Map([["gmail.com", "gmail.com"], ["googlemail.com", "gmail.com"]]);

/**
 * The canonical form of the mailbox `email` delivers to: trimmed and lower-cased, the `+tag` of the local part
 * dropped, and for gmail.com and googlemail.com (one domain) the local part's dots dropped too. An address without
 * `@` is returned lower-cased as it is.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const domain = address.slice(at + 1);
  let local = address.slice(0, at).split("+")[0];
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless) local = local.replaceAll(".", "");
  return `${local}@${dotless ?? domain}`;
}

/** What a report keeps of its reporter's mailbox: the SHA-256 (hex) of `canonicalMailbox(email)`, not the address. */
export function mailboxId(email: string): Promise<string> {
  return sha256Hex(canonicalMailbox(email));
}
