import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { sentenceId } from "@/lib/i18n/translator.ts";
import { PLATFORM_REFUSALS, REFUSAL_KEYS, refusalKey, REFUSALS, refusalText } from "./refusals.ts";
import { BusyError, NotFoundError, RateLimitedError } from "@/lib/errors.ts";
import { retrying } from "@/lib/kv/retry.ts";
import { MAX_ALERTS } from "@/lib/alerts/alerts.ts";
import { MAX_SAVED } from "@/lib/saved/schema.ts";
import { MAX_RESUME_BYTES } from "@/lib/resumes/resumes.ts";

const [en, hi] = [translatorFor("en"), translatorFor("hi")];
/** Sentences whose English words on a page differ from the API's (the API's would not tell a reader what happened). */
const REWORDED = new Set<string>([
  PLATFORM_REFUSALS.tooMany,
  PLATFORM_REFUSALS.busy,
  REFUSALS.invalidChange,
  REFUSALS.opportunityReviewed,
  REFUSALS.resumeChanged,
  REFUSALS.questionsNeedPlatform,
  REFUSALS.unknownQuestion,
  REFUSALS.lessonNotFound,
  REFUSALS.invalidBuyerState,
  REFUSALS.invalidPaymentSignature,
  REFUSALS.pushOff,
  REFUSALS.pushTooMany,
  REFUSALS.pushBadKeys,
  REFUSALS.adminOnlyFlags,
  REFUSALS.userExists,
  REFUSALS.videoNeedsUrl,
  REFUSALS.paymentsNotConfigured,
  REFUSALS.gatewayUnavailable,
  REFUSALS.unknownImage,
]);

Deno.test("every refusal has words in both catalogues: the API's sentence in English, Hindi for a Hindi reader", () => {
  for (const [sentence, key] of REFUSAL_KEYS) {
    assert(en.has(key) && hi.has(key), `${key} in both catalogues`);
    if (!REWORDED.has(sentence)) assertEquals(refusalText(en, sentence), `${sentence.replace(/\.$/, "")}.`);
    const hindi = refusalText(hi, new Error(sentence));
    assert(/[\u0900-\u097F]/.test(hindi) && hindi !== refusalText(en, sentence), `${sentence} in Hindi: ${hindi}`);
  }
});

Deno.test("a refusal's numbers are the limits the code enforces, and its words in both languages say them", () => {
  assertEquals(REFUSALS.tooManyAlerts, `You can keep at most ${MAX_ALERTS} alerts`);
  assertEquals(REFUSALS.tooManySaved, `You can save at most ${MAX_SAVED} items`);
  const mb = MAX_RESUME_BYTES / 1024 / 1024;
  assertEquals(REFUSALS.resumeTooLarge, `This file is larger than ${mb} MB: upload a PDF of at most ${mb} MB`);
  for (const [sentence, key] of REFUSAL_KEYS) {
    const numbers = sentence.match(/\d+/g) ?? [];
    // A refusal with another service's words has them as `detail` (none here: they bring their own numbers).
    assertEquals(en(key, { detail: "" }).match(/\d+/g) ?? [], numbers, `${key} in English`);
    assertEquals(hi(key, { detail: "" }).match(/\d+/g) ?? [], numbers, `${key} in Hindi`);
  }
});

Deno.test("each refusal has its own sentenceId, the name an island's text gives it", () => {
  const ids = new Set([...REFUSAL_KEYS.keys()].map(sentenceId));
  assertEquals(ids.size, REFUSAL_KEYS.size);
});

Deno.test("the platform's own refusals are what its errors say, worded as common.errors.<name>", async () => {
  assertEquals(new NotFoundError().message, PLATFORM_REFUSALS.notFound);
  assertEquals(new RateLimitedError(1).message, PLATFORM_REFUSALS.tooMany);
  await assertRejects(() => retrying(() => Promise.resolve(false), 0), BusyError, PLATFORM_REFUSALS.busy);
  for (const [name, sentence] of Object.entries(PLATFORM_REFUSALS)) {
    assertEquals(refusalKey(sentence), `common.errors.${name}`);
  }
});

Deno.test("a refusal not listed is shown as the domain wrote it", () => {
  assertEquals(refusalText(hi, new Error("Something new went wrong")), "Something new went wrong");
});

/** The domain error classes that carry a sentence a person may read (`lib/errors.ts`). */
const CLASSES = "Conflict|Forbidden|NotFound|InvalidInput|UnsupportedMediaType|TooLarge|Busy|Unauthenticated|" +
  "NotConfigured|Upstream|UpstreamRefusal";
/** A domain error thrown with a sentence as its first argument: `new NotFoundError(NOT_FOUND)`. */
const THROWN = new RegExp(`new (?:${CLASSES})Error\\(\\s*([A-Z][A-Z_]+)\\b`, "g");
/** A sentence written into a constant of its own: `const NOT_FOUND = "…"`. */
const WRITTEN = /\bconst ([A-Z][A-Z_]+)(?:: string)? = ["'`]/g;
/** Sentences built from a limit or a list, shown as written. */
const BUILT = new Set(["INVALID_ROLE_MESSAGE"]);
/** A domain error thrown with a sentence written in place: `new NotFoundError("…")`, or as a template literal. */
const THROWN_AS_WRITTEN = new RegExp(`new (?:${CLASSES})Error\\(\\s*(["'\`])(.*?)\\1`, "g");
/**
 * Sentences written in place that no page's form or island call can meet, so no reader sees them: answers to what only a
 * hand-made request sends (a value no form offers, a body that is not one), the API key's, the webhook's, and a refusal
 * whose fields say it at each field.
 */
const MACHINE_ONLY = new Set([
  "API key not found",
  "Invalid API key",
  "Social sign-in kept conflicting with concurrent writes",
  "Session not stored: the user record kept changing",
  "Sessions not ended: the user record kept changing",
  "E-mail not verified: the user record kept changing",
  "Password not reset: the user record kept changing",
  "Invalid form body",
  "Content-Type must be application/json",
  "Invalid JSON body",
  "Invalid persona",
  "Job not found",
  "Action must be approve or reject",
  "Invalid reason",
  "Invalid updatedAt",
  "Send the image as multipart/form-data in the field file",
  "Unknown reaction type",
  "Invalid lang",
  "Unknown alert kind",
  "Unknown intent",
]);

/** Sentences built in place from what the request sent or a limit, each with why it stays as written. */
const BUILT_IN_PLACE = new Map([
  // The profile's fields say the refusal at each field; this sentence only heads the `fields`.
  ["Invalid ${fields[rank(ordered[0])]}", "said at each field"],
  // The size limit's 413 for a body no form sends at that size; the image upload names its refusal instead
  // (`bodyLimitRefusal`), and a page's plain form gets the refusal page for the status.
  ["Request body is larger than ${megabytes} MB", "the body's size; uploads name their own refusal"],
  // A chunked import past the commit limits: only the bulk API meets it.
  ["Request too large: send fewer or smaller ${this.model.layout.noun}", "bulk API only"],
]);

/** The source files under `dir`, tests aside. */
async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("a refusal a domain or route throws is defined in lib/refusals.ts, so pages and islands word it", async () => {
  const thrown = new Set<string>();
  const written = new Map<string, string>();
  const root = new URL("..", import.meta.url).pathname;
  for (const folder of ["lib", "routes"]) {
    for await (const path of sources(`${root}${folder}`)) {
      const file = path.slice(root.length);
      const source = await Deno.readTextFile(path);
      for (const [, name] of source.matchAll(THROWN)) thrown.add(name);
      for (const [, , sentence] of source.matchAll(THROWN_AS_WRITTEN)) {
        if (!MACHINE_ONLY.has(sentence) && !BUILT_IN_PLACE.has(sentence)) {
          written.set(`${file}: "${sentence}"`, sentence);
        }
      }
      if (file === "lib/refusals.ts") continue;
      for (const [, name] of source.matchAll(WRITTEN)) written.set(`${file}: ${name}`, name);
    }
  }
  const own = [...written]
    .filter(([place, name]) => place.endsWith('"') || (thrown.has(name) && !BUILT.has(name)))
    .map(([place]) => place);
  assertEquals(own, [], "refusal sentences written outside lib/refusals.ts");
});
