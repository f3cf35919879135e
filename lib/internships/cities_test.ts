import { assertEquals } from "@/tests/helpers/assert.ts";
import { cityVariants } from "./cities.ts";

Deno.test("a city's other names are variants of a text naming it; other words are left alone", () => {
  assertEquals(cityVariants("bangalore"), ["bangalore", "bengaluru"]);
  assertEquals(cityVariants("gurgaon, haryana"), ["gurgaon, haryana", "gurugram, haryana"]);
  assertEquals(cityVariants("banaras"), ["banaras", "varanasi", "benares"]);
  assertEquals(cityVariants("puneet"), ["puneet"]);
  assertEquals(cityVariants("remote"), ["remote"]);
});
