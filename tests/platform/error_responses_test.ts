/** The HTTP answers of typed errors (lib/http/errors.ts), made per error. */
import { InvalidInputError, NotFoundError, RateLimitedError, ValidationError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";

async function answerOf(res: Response) {
  return { status: res.status, headers: [...res.headers], body: await res.json() };
}

Deno.test("errors map to their status, JSON body and headers", async () => {
  assertEquals(await answerOf(errorResponse(new NotFoundError("Internship not found"))), {
    status: 404,
    headers: [["content-type", "application/json"]],
    body: { error: "Internship not found" },
  });
  assertEquals(await answerOf(errorResponse(new RateLimitedError(1.2))), {
    status: 429,
    headers: [["content-type", "application/json"], ["retry-after", "2"]],
    body: { error: "Too many requests, try again later" },
  });
  const issues = [{ code: "custom" as const, path: ["email"], message: "Invalid email", input: "x" }];
  assertEquals((await answerOf(errorResponse(new ValidationError(issues)))).body, {
    error: [{ code: "custom", path: ["email"], message: "Invalid email" }],
    fields: [{ field: "email", message: "This value is not accepted.", messageKey: "fields.notAccepted" }],
  });
  const contact = [{ field: "contactNumber", message: "Enter exactly 10 digits." }];
  assertEquals((await answerOf(errorResponse(new InvalidInputError("Invalid contactNumber", contact)))).body, {
    error: "Invalid contactNumber",
    fields: contact,
  });
  assertEquals(errorResponse(new Error("not a domain error")), undefined);
});
