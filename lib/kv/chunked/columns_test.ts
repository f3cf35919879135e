/** Postings: slots by value, removed lazily, and a slot removed and added again before a read kept once. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { Postings } from "./columns.ts";

Deno.test("postings list slots by value in the order added, without removed ones", () => {
  const postings = new Postings();
  for (const slot of [1, 2, 3, 4]) postings.add("python", slot);
  postings.add("react", 2);
  postings.remove("python", 2);
  postings.remove("python", 4);
  postings.add("python", 4);
  assertEquals(postings.get("python"), [1, 3, 4]);
  postings.remove("python", 1);
  assertEquals(postings.get("python"), [3, 4]);
  postings.add("python", 1);
  assertEquals(postings.get("python"), [3, 4, 1]);
  assertEquals(postings.get("react"), [2]);
  assertEquals(postings.get("go"), []);
  assertEquals([...postings.values()], ["python", "react"]);
});
