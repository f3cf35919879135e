import { serialize } from "node:v8";
import { assert } from "@/tests/helpers/assert.ts";
import { valueBytes } from "./value_size.ts";

Deno.test("valueBytes bounds what a record takes once serialised, in Latin and in Devanagari script", () => {
  const answer = (text: string) => ({ questionId: "q1", question: text, answer: text.repeat(40) });
  for (const text of ["Why this internship? ", "यह इंटर्नशिप क्यों? ", "😀 emoji "]) {
    const record = {
      id: crypto.randomUUID(),
      status: "rejected",
      answers: [answer(text), answer(text)],
      history: [{ status: "applied", at: new Date().toISOString(), by: "applicant", message: null }],
      resume: { name: `${text}.pdf`, size: 123_456 },
      dueAt: null,
      stipendReport: null,
    };
    const serialised = serialize(record).length;
    assert(valueBytes(record) >= serialised, `${valueBytes(record)} < ${serialised} for "${text}"`);
    assert(valueBytes(record) <= 4 * serialised, "an estimate, not a multiple");
  }
});

Deno.test("valueBytes bounds one text as serialised, whatever its script, and counts Hindi at two bytes a character", () => {
  for (
    const text of ["plain mail ".repeat(500), "₹500 fee ".repeat(500), "नमस्ते दुनिया ".repeat(500), "😀".repeat(500)]
  ) {
    assert(valueBytes(text) >= serialize(text).length, text.slice(0, 10));
  }
  const hindi = "नमस्ते ".repeat(1_000);
  assert(valueBytes(hindi) >= 2 * hindi.length, "Hindi at two bytes a UTF-16 unit, as V8 stores it");
});
