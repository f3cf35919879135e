/**
 * A real SMTP server for tests (`smtp-server`): listens on 127.0.0.1 on a free port, accepts
 * every mail without TLS or authentication (unless `onMessage` refuses it), and keeps each message it accepted with
 * its subject, headers and plain-text and HTML bodies decoded (multipart, quoted-printable, base64, RFC 2047
 * subjects).
 * Point the app at it with `createTestApp({ env: { SMTP_URL: smtp.url } })`.
 */
import { Buffer } from "node:buffer";
import { SMTPServer } from "smtp-server";

/** One received message. */
export interface ReceivedMail {
  /** Envelope sender and recipients. */
  from: string;
  to: string[];
  subject: string;
  /** Header lines by lower-case name (folded lines unfolded). */
  headers: Map<string, string>;
  text: string;
  html: string;
  raw: string;
}

/** A running fake SMTP server. */
export interface FakeSmtp extends AsyncDisposable {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** The messages accepted, in order. */
  messages: ReceivedMail[];
  /** How many messages `onMessage` refused. */
  refused: number;
  /** The first message to `to` (waits up to `timeoutMs` for it). @throws Error on timeout. */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function splitHead(part: string): { headers: Map<string, string>; body: string } {
  const at = part.indexOf("\r\n\r\n");
  const head = at < 0 ? part : part.slice(0, at);
  const body = at < 0 ? "" : part.slice(at + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(soft[i]));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

function decodeWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g,
    (_m, _charset, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

function bodies(headers: Map<string, string>, body: string, out: { text: string; html: string }): void {
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = type.match(/boundary="?([^";]+)"?/i)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith("--")) break;
      const inner = splitHead(part.replace(/^\r\n/, ""));
      bodies(inner.headers, inner.body, out);
    }
  } else if (/^text\/html/i.test(type)) out.html = decodeBody(headers, body);
  else if (/^text\/plain/i.test(type)) out.text = decodeBody(headers, body);
}

/** Parses a raw RFC 5322 message into subject, headers, text and HTML. */
export function parseMail(raw: string): Pick<ReceivedMail, "subject" | "headers" | "text" | "html"> {
  const { headers, body } = splitHead(raw);
  const out = { text: "", html: "" };
  bodies(headers, body, out);
  return { subject: decodeWords(headers.get("subject") ?? ""), headers, ...out };
}

/** An error for `onMessage` to reject with: the server answers `code` (e.g. 451, try again later) and `message`. */
export function smtpRefusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Options of `startFakeSmtp`. */
export interface FakeSmtpOptions {
  /**
   * Called with each message once it is received; the server answers the client only after it settles: accepted
   * (and kept in `messages`) when it resolves, refused with the error's `responseCode` when it rejects
   * (`smtpRefusal`).
   */
  onMessage?: (mail: ReceivedMail) => Promise<void>;
}

/** Starts the server. */
export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        };
        (options.onMessage?.(mail) ?? Promise.resolve()).then(() => {
          messages.push(mail);
          callback();
        }, (error) => {
          refused++;
          callback(error);
        });
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refused() {
      return refused;
    },
    async waitFor(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
