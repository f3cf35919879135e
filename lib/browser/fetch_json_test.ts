import { assertEquals } from "@/tests/helpers/assert.ts";
import { type ApiFailure, failureMessage, fetchJson, refusalPrefixes } from "./fetch_json.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { PLATFORM_REFUSALS, REFUSALS } from "@/lib/refusals.ts";

const failure = (status: number, apiError = "", fields: ApiFailure["fields"] = []): ApiFailure => ({
  ok: false,
  status,
  apiError,
  fields,
});

Deno.test("failureMessage says a refusal in the page's language, the server's own {error} quoted as it came", () => {
  const hi = translatorFor("hi");
  const en = translatorFor("en");
  assertEquals(failureMessage(hi, failure(0)), hi("common.errors.network"));
  assertEquals(failureMessage(hi, failure(429)), hi("common.errors.tooMany"));
  assertEquals(failureMessage(hi, failure(400)), hi("common.errors.notAccepted"), "a 400 without an {error}");
  assertEquals(failureMessage(en, failure(502)), "Request failed (502)");
  assertEquals(failureMessage(hi, failure(409, "Already saved")), "यह नहीं हो पाया: Already saved");
  const problem = {
    field: "maxStipend",
    message: "Enter 5 or more.",
    messageKey: "fields.minNumber",
    values: { min: 5 },
  };
  assertEquals(failureMessage(hi, failure(400, "Invalid input", [problem])), "Max stipend: 5 या उससे ज़्यादा लिखें।");
  assertEquals(
    failureMessage(hi, failure(400, "", [problem]), { maxStipend: "ज़्यादा से ज़्यादा स्टाइपेंड" }),
    "ज़्यादा से ज़्यादा स्टाइपेंड: 5 या उससे ज़्यादा लिखें।",
  );
});

Deno.test("failureMessage says a domain's refusal in the island's language when its text carries the refusal", () => {
  const page = translatorFor("hi");
  const island = translatorOf(page.island(["common.errors.", ...refusalPrefixes("editLate")]));
  assertEquals(failureMessage(island, failure(403, REFUSALS.editLate)), page("common.refusal.editLate"));
  assertEquals(
    failureMessage(island, failure(404, REFUSALS.postNotFound)),
    `यह नहीं हो पाया: ${REFUSALS.postNotFound}`,
    "a refusal the island does not carry is quoted as it came",
  );
  assertEquals(failureMessage(translatorFor("en"), failure(403, REFUSALS.editLate)), `${REFUSALS.editLate}.`);
});

Deno.test("failureMessage says the platform's busy and not-found refusals in every island that words failures", () => {
  for (const lang of ["hi", "en"] as const) {
    const page = translatorFor(lang);
    const island = translatorOf(page.island(["me.channels.", "common.errors."]));
    assertEquals(failureMessage(island, failure(503, PLATFORM_REFUSALS.busy)), page("common.errors.busy"), lang);
    assertEquals(
      failureMessage(island, failure(404, PLATFORM_REFUSALS.notFound)),
      page("common.errors.notFound"),
      lang,
    );
  }
});

Deno.test("fetchJson keeps an answer's Retry-After in whole seconds, and leaves a date or none out", async () => {
  const answers: Record<string, HeadersInit> = {
    "/seconds": { "retry-after": "270" },
    "/date": { "retry-after": "Fri, 27 Nov 2026 18:30:00 GMT" },
    "/none": {},
  };
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (req) =>
      Response.json({ error: PLATFORM_REFUSALS.tooMany }, {
        status: 429,
        headers: answers[new URL(req.url).pathname],
      }),
  );
  const retryAfter = async (path: string) => {
    const answer = await fetchJson(`http://127.0.0.1:${server.addr.port}${path}`);
    return answer.ok ? "ok" : [answer.status, answer.apiError, answer.retryAfterSeconds];
  };
  assertEquals(await retryAfter("/seconds"), [429, PLATFORM_REFUSALS.tooMany, 270]);
  assertEquals(await retryAfter("/date"), [429, PLATFORM_REFUSALS.tooMany, undefined]);
  assertEquals(await retryAfter("/none"), [429, PLATFORM_REFUSALS.tooMany, undefined]);
});
