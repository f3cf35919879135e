/**
 * Graceful shutdown of the real server process (`main.ts`): on SIGTERM or SIGINT the work a
 * request started (a sign-up's verification mail, which the fake SMTP server holds until after the
 * signal) still finishes and is recorded as sent, the sign-up's write is in the KV file afterwards,
 * and the process exits 0.
 */
import { getUserByEmail } from "@/lib/users/users.ts";
import { listOutbox } from "@/lib/mail/outbox_admin.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { checkedFetch } from "@/tests/helpers/openapi_answers.ts";

const root = new URL("../..", import.meta.url).pathname;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function waitForHealth(origin: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await checkedFetch(`${origin}/api/health`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`on ${signal} a mail delivery in flight finishes, the writes survive and the process exits 0`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "shutdown-" });
    const mailArrived = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    await using smtp = await startFakeSmtp({
      onMessage() {
        mailArrived.resolve();
        return release.promise;
      },
    });
    const port = freePort();
    const origin = `http://localhost:${port}`;
    const server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: root,
      env: {
        PORT: String(port),
        SMTP_URL: smtp.url,
        KV_PATH: `${dir}/kv.sqlite3`,
        RATE_LIMITS: "off",
        LOG_LEVEL: "error",
        NO_COLOR: "1",
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      await waitForHealth(origin);
      const email = `late-${signal.toLowerCase()}@example.com`;
      const pending = checkedFetch(`${origin}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Late Writer", email, password: "a-long-password" }),
      });
      await mailArrived.promise;
      server.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 200));
      release.resolve();
      const res = await pending;
      assertEquals(res.status, 200, "the sign-up is answered");
      assertEquals((await res.json()).user.email, email);
      const { code } = await server.status;
      assertEquals(code, 0);
      const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
      try {
        assertEquals((await getUserByEmail(kv, email))?.name, "Late Writer", "the acknowledged write is in the file");
        const { mails } = await listOutbox(kv, { search: email, limit: 10, offset: 0 });
        assertEquals(mails.map((m) => m.status), ["sent"], "the delivery in flight was recorded");
      } finally {
        kv.close();
      }
    } finally {
      try {
        server.kill("SIGKILL");
      } catch {
        // already exited
      }
      await server.stderr.cancel();
      await server.status;
      await Deno.remove(dir, { recursive: true });
    }
  });
}
