/**
 * No user-facing English outside the catalogues (docs/decisions.md, Languages, "Catalogues") in the files that make
 * pages, islands, components, e-mails and notifications (`SCANNED`). `ALLOWED` is the short list of words that read
 * the same in every language (names and symbols). Run it as a script to list every finding:
 * `deno run -A tests/i18n/literals_test.ts`.
 */
import { join } from "node:path";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { type Literal, literalsOf } from "./literals.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** Folders scanned whole (their unit tests aside), and single files that write e-mails and notifications. */
const SCANNED = {
  folders: ["routes", "islands", "components", "lib/browser"],
  files: [
    "lib/field_messages.ts",
    "lib/mail/layout.tsx",
    "lib/mail/templates.tsx",
    "lib/auth/mails.ts",
    "lib/alerts/mails.tsx",
    "lib/alerts/reminders.ts",
    "lib/comments/reply_mail.tsx",
    "lib/comments/comments.ts",
    "lib/purchases/mails.tsx",
    "lib/purchases/settlement.ts",
    "lib/purchases/refunds.ts",
    "lib/purchases/receipts.ts",
    "lib/reports/reports.ts",
    "lib/push/notification_mail.tsx",
    "lib/opportunities/opportunities.ts",
    "lib/internships/internships.ts",
    "lib/internships/views.ts",
    "lib/internships/writes.ts",
  ],
};

/** Files that are not pages, or answer only in English by rule: the API (routes/api), feeds and machine files. */
const NOT_PAGES = /^routes\/(api\/|.*\.(xml|txt|ics|json|webmanifest)\.ts$|sitemap)/;

/**
 * Text that reads the same in English and Hindi: names of the platform, of other companies and of formats, and
 * units. Everything else a person reads comes from the catalogues.
 */
const ALLOWED = new Set([
  "Career Community",
  "Ungatekeep",
  "Google",
  "LinkedIn",
  "Razorpay",
  "UPI",
  "GST",
  "GSTIN",
  "PDF",
  "RSS",
  "API",
  "JSON",
  "IST",
]);

/** Every scanned source file, relative to the root. */
export async function scannedFiles(): Promise<string[]> {
  const files: string[] = [...SCANNED.files];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name) && !NOT_PAGES.test(path)) {
        files.push(path);
      }
    }
  };
  for (const folder of SCANNED.folders) await walk(folder);
  return files.sort();
}

/** The findings of every scanned file. */
export async function findings(): Promise<Literal[]> {
  const found: Literal[] = [];
  for (const file of await scannedFiles()) {
    const path = join(ROOT, file);
    found.push(...literalsOf(ROOT, path, await Deno.readTextFile(path), ALLOWED));
  }
  return found;
}

Deno.test("no user-facing English outside the catalogues in pages, islands, components and e-mails", async () => {
  const found = await findings();
  assertEquals(found.map((literal) => `${literal.file}:${literal.line} ${literal.text}`), []);
});

Deno.test("the scanner finds what it should and leaves what it should", () => {
  const source = `
    import x from "Some Module";
    export function A({ n }: { n: number }) {
      if (n === "Never Mind") throw new Error("Developer text here");
      console.log("Also developer text");
      const label = "Save changes";
      const hint = \`Showing \${n} results\`;
      return <p class="text-sm font-medium" aria-label="Close dialog" title={t("x.y")} data-x="Not Read">
        Hello there {label} <span>{"Career Community"}</span>
      </p>;
    }`;
  const texts = literalsOf(ROOT, join(ROOT, "x.tsx"), source, ALLOWED).map((literal) => literal.text);
  assertEquals(texts, ["Save changes", "Showing … results", "Close dialog", "Hello there"]);
});

if (import.meta.main) {
  const byFile = new Map<string, Literal[]>();
  for (const literal of await findings()) byFile.set(literal.file, [...byFile.get(literal.file) ?? [], literal]);
  for (const [file, literals] of byFile) {
    console.log(`${file} (${literals.length})`);
    for (const literal of literals) console.log(`  ${literal.line}: ${literal.text}`);
  }
  console.log(`${[...byFile.values()].flat().length} findings in ${byFile.size} files`);
}
