import { assertEquals } from "@/tests/helpers/assert.ts";
import { isFormSender } from "./messages.ts";

Deno.test("a form's sender is the window at its referrer, whatever fragment the window's address has", () => {
  const page = "https://careers.example/internships/mine?page=2";
  assertEquals(isFormSender(page, page), true);
  assertEquals(isFormSender(`${page}#internship-7`, page), true, "reached through a link to one listing");
  assertEquals(isFormSender("https://careers.example/internships/mine", page), false, "another page of the list");
  assertEquals(isFormSender(page, ""), false, "no referrer names no window");
});
