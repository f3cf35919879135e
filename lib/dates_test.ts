import { assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { formatDate, formatDateTime, fromIstInput, istDayOf, istToday, toIstInput } from "./dates.ts";

Deno.test("timestamps show in IST: 20:00 UTC is the next day at 1:30 am", () => {
  assertEquals(formatDateTime("2026-11-24T20:00:00Z"), "25 Nov 2026, 1:30 am IST");
  assertEquals(formatDate("2026-11-24T20:00:00Z"), "25 Nov 2026");
  assertEquals(formatDateTime("2026-11-24T06:45:00.000Z"), "24 Nov 2026, 12:15 pm IST");
});

Deno.test("a calendar date is the day it names, and unreadable input is returned as given", () => {
  assertEquals(formatDate("2099-12-31"), "31 Dec 2099");
  assertEquals(formatDate("soon"), "soon");
  assertEquals(formatDateTime("soon"), "soon");
  // A day written once in one language is written in the other language's words there.
  assertEquals([formatDate("2099-12-31", "hi"), formatDate("2099-12-31")], ["31 दिसंबर 2099", "31 Dec 2099"]);
});

Deno.test("datetime-local values are read and filled in IST", () => {
  assertEquals(fromIstInput("2026-11-25T01:30"), "2026-11-24T20:00:00.000Z");
  assertEquals(toIstInput("2026-11-24T20:00:00.000Z"), "2026-11-25T01:30");
  assertEquals([fromIstInput(""), fromIstInput("tomorrow"), toIstInput(null)], [null, null, ""]);
});

Deno.test("the IST day of a moment, and today in IST, roll over at 18:30 UTC", () => {
  assertEquals(istDayOf("2026-11-24T18:29:59Z"), "2026-11-24");
  assertEquals(istDayOf("2026-11-24T18:30:00Z"), "2026-11-25");
  assertEquals([istDayOf("2026-02-03"), istDayOf("soon")], ["2026-02-03", null]);
  assertEquals(istToday(new Date("2026-11-24T18:30:00Z")), "2026-11-25");
  // The day kept from one call never answers a moment outside it.
  const moments = ["2026-11-24T18:29:59.999Z", "2026-11-24T18:30:00Z", "2026-11-24T18:29:59Z", "2019-01-01T00:00:00Z"];
  assertEquals(moments.map((moment) => istToday(new Date(moment))), [
    "2026-11-24",
    "2026-11-25",
    "2026-11-24",
    "2019-01-01",
  ]);
  assertThrows(() => istToday(new Date("soon")), RangeError);
});

Deno.test("a moment on a Hindi page names the part of the day in Hindi, not am or pm", () => {
  assertEquals(formatDateTime("2026-11-27T22:22:00Z", "hi"), "28 नवंबर 2026, रात 3:52 IST");
  assertEquals(formatDateTime("2026-11-24T14:01:00Z", "hi"), "24 नवंबर 2026, शाम 7:31 IST");
  assertEquals(formatDateTime("2026-11-24T06:45:00Z", "hi"), "24 नवंबर 2026, दोपहर 12:15 IST");
});
