import { z } from "zod";
import { fieldProblems, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";

/** The field problems zod's issues for `value` become, with their catalogue keys. */
function fullProblemsOf(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value, PARSE_WITH_INPUT);
  return result.success ? [] : fieldProblems(result.error.issues);
}

/** The field problems zod's issues for `value` become, as field and English sentence. */
function problemsOf(schema: z.ZodType, value: unknown) {
  return fullProblemsOf(schema, value).map(({ field, message }) => ({ field, message }));
}

Deno.test("zod issues become one plain sentence per field, never a path or zod's wording", () => {
  const schema = z.object({
    title: z.string().trim().min(1).max(5),
    stipend: z.number().int().min(0).max(100_000),
    email: z.email(),
    link: z.url(),
    type: z.enum(["remote", "onsite"]),
    tags: z.array(z.string().max(3)).max(2),
    dates: z.object({ start: z.string() }),
  }).refine(() => false, { path: ["title"], message: "The title is taken." });
  const found = problemsOf(schema, {
    title: "far too long",
    stipend: 2.5,
    email: "nope",
    link: "nope",
    type: "space",
    tags: ["ok", "toolong", "x"],
    dates: {},
  });
  assertEquals(found, [
    { field: "title", message: "Use at most 5 characters." },
    { field: "stipend", message: "Enter a number." },
    { field: "email", message: "Enter a valid e-mail address, like name@example.com." },
    { field: "link", message: "Enter a full web address starting with https://." },
    { field: "type", message: "Choose one of the offered options." },
    { field: "tags", message: "Use at most 2 items." },
    { field: "dates.start", message: "Fill in this field." },
  ]);
  assertEquals(problemsOf(z.object({ title: z.string().min(1) }), { title: "" }), [
    { field: "title", message: "Fill in this field." },
  ]);
  assertEquals(problemsOf(z.object({ n: z.number().max(100_000) }), { n: 200_000 }), [
    { field: "n", message: "Enter 1,00,000 or less." },
  ]);
  const refined = z.object({ min: z.number(), max: z.number() }).refine((v) => v.max >= v.min, {
    path: ["max"],
    message: "The maximum must not be below the minimum.",
  });
  assertEquals(problemsOf(refined, { min: 5, max: 1 }), [
    { field: "max", message: "The maximum must not be below the minimum." },
  ]);
});

Deno.test("a missing value is told by the issue's input, whatever the issue's wording", () => {
  const schema = z.object({
    name: z.string({ error: "Name, please" }),
    age: z.number({ error: "Age, please" }),
    tags: z.array(z.string()),
  });
  assertEquals(problemsOf(schema, { name: null, tags: undefined }), [
    { field: "name", message: "Fill in this field." },
    { field: "age", message: "Fill in this field." },
    { field: "tags", message: "Fill in this field." },
  ]);
  assertEquals(problemsOf(schema, { name: 5, age: "received undefined", tags: "a" }), [
    { field: "name", message: "Enter text here." },
    { field: "age", message: "Enter a number." },
    { field: "tags", message: "Choose from the list." },
  ]);
});

Deno.test("issues parsed without their input never claim a value is missing", () => {
  const result = z.object({ name: z.string() }).safeParse({ name: 5 });
  assertEquals(result.success ? [] : fieldProblems(result.error.issues), [{
    field: "name",
    message: "Enter text here.",
    messageKey: "fields.text",
  }]);
});

Deno.test("a field problem carries its catalogue sentence, which a page shows in its own language", () => {
  const schema = z.object({
    title: z.string().max(5),
    link: z.string().regex(/^\//, "fields.linkOrPath"),
    code: z.string().regex(/^[A-Z]+$/, "Use capital letters."),
  });
  const found = fullProblemsOf(schema, { title: "far too long", link: "x", code: "x" });
  assertEquals(found, [
    { field: "title", message: "Use at most 5 characters.", messageKey: "fields.maxChars", values: { max: 5 } },
    {
      field: "link",
      message: "Enter a path on this site, such as /internships, or a full web address starting with https://.",
      messageKey: "fields.linkOrPath",
    },
    { field: "code", message: "Use capital letters." },
  ]);
  const hi = translatorFor("hi");
  const [title, link, code] = found.map((problem) => fieldText(hi, problem));
  assertEquals(title, hi("fields.maxChars", { max: 5 }));
  assertEquals(/[\u0900-\u097F]/.test(title) && /[\u0900-\u097F]/.test(link), true, "Hindi in Devanagari");
  assertEquals(code, "Use capital letters.", "a schema's own English stays as written");
});
