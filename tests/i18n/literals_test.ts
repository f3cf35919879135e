/**
 * No user-facing English outside the catalogues (docs/decisions.md, Languages, "Catalogues") in pages, islands,
 * components and every module of `lib/` (`SCANNED`), but the few whose English no page shows (`NOT_READ`). `ALLOWED` is the short list of words that read
 * the same in every language (names and symbols). Run it as a script to list every finding:
 * `deno run -A tests/i18n/literals_test.ts`.
 */
import { join } from "node:path";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { type Literal, literalsOf } from "./literals.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** Folders scanned whole, their unit tests aside. */
const SCANNED = ["routes", "islands", "components", "lib"];

/**
 * Files and folders of `lib/` whose English no page shows, each with why (docs/decisions.md, Languages): the API's
 * and the feeds' English, stored values that pages word from the catalogue, data and generated code.
 */
const NOT_READ: Record<string, string> = {
  "lib/refusals.ts": "the API's refusal sentences; pages and islands word them from common.refusal.*",
  "lib/coupons/errors.ts": "the API's coupon refusals; pages and the checkout word them by couponRefusalKey",
  "lib/errors.ts": "the API's error sentences",
  "lib/http/limits.ts": "the API's 414 sentence; a page path gets its page",
  "lib/platform/": "the API's 405 and 500 sentences, the header timeout's plain answer",
  "lib/web/": "the generic web layer's plain answers, and the route manifest's generated code",
  "lib/openapi/": "docs/api.md and the OpenAPI document are English",
  "lib/seo/": "feeds and structured data are English (Feeds stay English)",
  "lib/internships/stipend.ts": "the feed's stipend words (Feeds stay English)",
  "lib/ungatekeep/tags.ts": "the feed's tag labels (Feeds stay English); pages use ungatekeep.tag.*",
  "lib/demo/": "the demo's data: what people wrote",
  "lib/internships/fixtures.ts": "listings for tests and the demo: what people wrote",
  "lib/onboarding/onboarding.ts": "stored values of the API; pages word them from the catalogue",
  "lib/moderation/moderation.ts": "stored hold reasons; pages word them (lib/browser/moderation_format.ts)",
  "lib/moderation/never_pay.ts": "the words the never-pay rule matches, never shown",
  "lib/purchases/indian_states.ts":
    "the states' names as the tax invoice writes them; the checkout uses toolkits.state.*",
  "lib/purchases/place_of_supply.ts": "cities and states matched to find the place of supply",
  "lib/users/roles.ts": "the API's name for a former member; pages say common.formerMember",
  "lib/auth/": "the sign-in flow's logged failures and the default name of an account without one",
  "lib/comments/store.ts": "a stored notification's English, kept beside its catalogue key (Stored words)",
  "lib/applications/applications.ts": "the stored value Other",
  "lib/i18n/languages.ts": "each language's name in itself",
  "lib/payments/": "the gateway's own words, matched in its answers",
  "lib/comments/content.ts": "the rel of a comment's links",
};

/** Whether `file` is in `NOT_READ`. */
const notRead = (file: string) => Object.keys(NOT_READ).some((where) => file === where || file.startsWith(where));

/**
 * zod's own wording in a schema ("Expected an integer"): `lib/field_messages.ts` puts the catalogue's sentence in its
 * place, so no page shows it.
 */
const ZOD_WORDED = /^(Invalid|Too (small|big)|Expected|Unrecognized)\b/;

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
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (
        /\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name) && !NOT_PAGES.test(path) && !notRead(path)
      ) {
        files.push(path);
      }
    }
  };
  for (const folder of SCANNED) await walk(folder);
  return files.sort();
}

/** The findings of every scanned file. */
export async function findings(): Promise<Literal[]> {
  const found: Literal[] = [];
  for (const file of await scannedFiles()) {
    const path = join(ROOT, file);
    const literals = literalsOf(ROOT, path, await Deno.readTextFile(path), ALLOWED);
    found.push(...literals.filter((literal) => !(file.startsWith("lib/") && ZOD_WORDED.test(literal.text))));
  }
  return found;
}

Deno.test("no user-facing English outside the catalogues in pages, islands, components and lib/", async () => {
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
