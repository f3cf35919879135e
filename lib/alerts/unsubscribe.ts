/**
 * One-click unsubscribe links of alert, reminder and reply e-mails (docs/decisions.md, Alerts):
 * `{APP_URL}/unsubscribe/{token}` works without signing in. `GET` shows what the link turns off and changes nothing;
 * `POST` (the page's button, or a mail client's RFC 8058 one-click request) turns it off: the alerts the e-mail was
 * sent for, or the person's setting the e-mail came under (deadline reminders, e-mails on replies). The page names them as the e-mail did (each alert in words, or the setting) and the account by its
 * masked e-mail address (`unsubscribeSubject`): no more than the e-mail that carried the link showed.
 *
 * Keys (owned by this module only), both expiring after `TOKEN_TTL_MS`:
 * - `["unsubscribe_tokens", sha256(token)]` → `UnsubscribeTarget` (only the hash is stored, as for every secret token);
 * - `["unsubscribe_by_user", userId, sha256(token)]` → true, to delete a person's tokens with their account.
 */
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { type Alert, alertsByIds, pauseAlerts } from "./alerts.ts";
import { updateSettings } from "@/lib/settings/settings.ts";
import { getUser } from "@/lib/users/users.ts";
import type { Lang } from "@/lib/i18n/languages.ts";

/** What a link turns off: alerts by id, the deadline reminders, or the e-mails on replies to one's comments. */
export type UnsubscribeTarget =
  | { userId: string; kind: "alerts"; alertIds: string[] }
  | { userId: string; kind: "reminders" | "replies" };

/** The setting a link of each other kind turns off. */
export const SETTING_OF = { reminders: "deadlineReminders", replies: "emailOnReply" } as const;

/** How long an unsubscribe link works (ms): 90 days. */
export const TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/** A new unsubscribe token, and how to store it in the write that queues the e-mail carrying it. */
export interface NewUnsubscribeToken {
  token: string;
  /** Adds the token's records (only its SHA-256 is stored) to `op`. */
  write(op: Deno.AtomicOperation): void;
}

/** A new unsubscribe token for `target`. */
export async function newUnsubscribeToken(target: UnsubscribeTarget): Promise<NewUnsubscribeToken> {
  const token = randomToken();
  const hash = await sha256Hex(token);
  return {
    token,
    write(op) {
      op.set(["unsubscribe_tokens", hash], target, { expireIn: TOKEN_TTL_MS })
        .set(["unsubscribe_by_user", target.userId, hash], true, { expireIn: TOKEN_TTL_MS });
    },
  };
}

/** The target of `token`, or null for an unknown or expired one. */
export async function readUnsubscribeToken(kv: Deno.Kv, token: string): Promise<UnsubscribeTarget | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  return (await kv.get<UnsubscribeTarget>(["unsubscribe_tokens", await sha256Hex(token)])).value;
}

/** What an unsubscribe page names: the target, its alerts (ones deleted since left out) and the account, masked. */
export interface UnsubscribeSubject {
  target: UnsubscribeTarget;
  /** The alerts of an `alerts` target that still exist, with whether each is on; `[]` for reminders. */
  alerts: Alert[];
  /** The account's e-mail address masked as `s•••@example.com`; null once the account is gone. */
  account: string | null;
  /** The account's language (the page is in it: docs/decisions.md, Languages); null once gone or never chosen. */
  language: Lang | null;
}

/** `email` with its local part cut to its first character: `sara@demo.careers` → `s•••@demo.careers`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 1 ? "•••" : `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** What `target` names, for its page. */
export async function unsubscribeSubject(kv: Deno.Kv, target: UnsubscribeTarget): Promise<UnsubscribeSubject> {
  const [alerts, user] = await Promise.all([
    target.kind === "alerts" ? alertsByIds(kv, target.userId, target.alertIds) : [],
    getUser(kv, target.userId),
  ]);
  return { target, alerts, account: user ? maskEmail(user.email) : null, language: user?.language ?? null };
}

/** Turns off what `target` (a token's, `readUnsubscribeToken`) names; idempotent. */
export async function unsubscribe(kv: Deno.Kv, target: UnsubscribeTarget): Promise<void> {
  if (target.kind === "alerts") await pauseAlerts(kv, target.userId, target.alertIds);
  else await updateSettings(kv, target.userId, { [SETTING_OF[target.kind]]: false });
}

/**
 * Deletes every unsubscribe token of `userId` (account deletion); idempotent. A heavy reader holds hundreds (one per
 * e-mail of 90 days), two keys of about 100 bytes each: `deleteListed` sends as many a commit as KV's 80 KiB of keys a
 * commit takes.
 */
export async function deleteUnsubscribeTokensOf(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed(kv, ["unsubscribe_by_user", userId], ({ key }) => [["unsubscribe_tokens", key[2]]]);
}
