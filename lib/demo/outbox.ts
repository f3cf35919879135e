/**
 * A demo e-mail that failed (docs/decisions.md, Background work): Rohan's reply notice, refused by the receiving
 * server on its only try, so `/admin/outbox` shows a failed mail with its error and a retry to press (without
 * `SMTP_URL` the retry "sends" it to the log). The other demo e-mails are queued by their own domains and sent by the
 * `outbox` job once the server runs. Added only while the outbox holds no failed mail.
 */
import { loadConfig } from "@/app.config.ts";
import { createLogger } from "@/lib/log.ts";
import { deliverMail } from "@/lib/mail/delivery.ts";
import { queueMailOps, readMail } from "@/lib/mail/outbox.ts";
import { listOutbox } from "@/lib/mail/outbox_admin.ts";
import type { User } from "@/lib/users/users.ts";

/** Adds the failed demo mail unless a failed one is there; returns a line saying what it did. */
export async function seedOutbox(kv: Deno.Kv, accounts: Map<string, User>, appUrl: string): Promise<string[]> {
  const rohan = accounts.get("rohan@demo.careers");
  if (!rohan || (await listOutbox(kv, { status: "failed", limit: 1, offset: 0 })).counts.failed > 0) {
    return ["Outbox: no failed e-mail added"];
  }
  const op = kv.atomic();
  const id = queueMailOps(op, {
    to: rohan.email,
    subject: "Sara replied to your comment",
    text: `Hi ${rohan.name},\n\nSara replied to your comment on Ungatekeep.\n\n${appUrl}/ungatekeep\n`,
    html: `<p>Hi ${rohan.name},</p><p>Sara replied to your comment on Ungatekeep.</p>`,
    link: `${appUrl}/ungatekeep`,
    userId: rohan.id,
    // It holds no token, so it is kept for a retry.
    retryable: true,
  });
  await op.commit();
  // One try, refused for good: no retry waits.
  const config = { ...loadConfig({}), outboxRetryMs: [] };
  const mailer = {
    send: () => Promise.reject(new Error(`550 5.1.1 <${rohan.email}>: mailbox unavailable`)),
    close() {},
  };
  await deliverMail({ kv, mailer, config, log: createLogger("error") }, await readMail(kv, id), Date.now());
  return ["Outbox: 1 failed e-mail added (retry it on /admin/outbox)"];
}
