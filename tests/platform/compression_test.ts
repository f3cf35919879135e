/**
 * Responses of the real server process (`main.ts`) are compressed for a client that accepts
 * gzip: the internships page, the API's JSON and the built stylesheet; one that accepts no
 * encoding gets the plain body.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { checkedFetch } from "@/tests/helpers/openapi_answers.ts";

const root = new URL("../..", import.meta.url).pathname;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The status line and headers of a raw HTTP/1.1 GET (no client that decodes bodies on its own). */
async function rawHead(
  port: number,
  path: string,
  acceptEncoding: string | null,
): Promise<Headers & { status: number }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [`GET ${path} HTTP/1.1`, `Host: localhost:${port}`, "Connection: close"];
  if (acceptEncoding) lines.push(`Accept-Encoding: ${acceptEncoding}`);
  await conn.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`));
  const chunks: Uint8Array[] = [];
  for await (const chunk of conn.readable) chunks.push(chunk);
  const text = new TextDecoder("latin1").decode(new Uint8Array(chunks.flatMap((c) => [...c])));
  const [head] = text.split("\r\n\r\n");
  const [statusLine, ...fields] = head.split("\r\n");
  const headers = new Headers(
    fields.map((f): [string, string] => [f.slice(0, f.indexOf(":")), f.slice(f.indexOf(":") + 1).trim()]),
  );
  return Object.assign(headers, { status: Number(statusLine.split(" ")[1]) });
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

Deno.test("pages, JSON and assets are gzip-compressed for a client that accepts it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "compression-" });
  const port = freePort();
  const origin = `http://localhost:${port}`;
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: root,
    env: { PORT: String(port), KV_PATH: `${dir}/kv.sqlite3`, LOG_LEVEL: "error", NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitForHealth(origin);
    const html = await (await fetch(`${origin}/internships`)).text();
    // Pages inline their CSS rules; the built asset a page names is its boot module.
    const module = html.match(/\/_build\/[^"]+\.js/)?.[0];
    assert(module, "the page loads a built module");
    for (const path of ["/internships", "/", "/api/internships", module]) {
      const gzip = await rawHead(port, path, "gzip, deflate");
      assertEquals([gzip.status, gzip.get("content-encoding")], [200, "gzip"], path);
      assert(gzip.get("vary")?.toLowerCase().includes("accept-encoding"), `${path}: Vary`);
      const plain = await rawHead(port, path, null);
      assertEquals([plain.status, plain.get("content-encoding")], [200, null], `${path} without Accept-Encoding`);
    }
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
});
