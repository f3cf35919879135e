/**
 * Critical CSS (`lib/web/critical_css.ts`, `lib/web/css_index.ts`): a page keeps the rules its classes need, in the
 * stylesheet's order and at-rules, the layer order first, the custom properties those rules refer to, and what needs
 * no class; pointer, focus and print styles with the rest, and the classes of the page's islands as well.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { classesOf, criticalCss, criticalCssOf } from "@/lib/web/critical_css.ts";
import { indexStylesheet, selectorClasses } from "@/lib/web/css_index.ts";

const CSS = [
  "@layer theme,base,utilities;",
  "@layer theme{:root,:host{--color-red:red;--color-blue:blue;--spacing:.25rem;--gap:calc(var(--spacing) * 2)}}",
  "@layer base{*,:after{box-sizing:border-box}h1{font-size:inherit}}",
  "@layer utilities{.flex{display:flex}.text-red{color:var(--color-red)}.text-blue{color:var(--color-blue)}",
  ".gap{gap:var(--gap)}.md\\:grid{@media (min-width:48rem){display:grid}}",
  ".hover\\:text-red:hover{color:var(--color-red)}",
  ".max-lg\\:\\[\\&_td\\]\\:block td,.group-open\\:rotate-180:is(:where(.group):is([open]) *){display:block}",
  '.content-\\[\\"a\\.b\\"\\]{content:"a.b"}',
  "@media (min-width:40rem){.sm\\:flex{display:flex}.sm\\:hidden{display:none}}",
  "@media (hover:hover){.hover\\:underline:hover{text-decoration-line:underline}}}",
  "@media print{body>header{display:none}}",
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 transparent}',
  '@property --tw-ring{syntax:"*";inherits:false}',
  ".shadow{box-shadow:var(--tw-shadow)}",
].join("");

Deno.test("a selector's classes are unescaped, and strings are not read as classes", () => {
  assertEquals(selectorClasses(".md\\:flex"), ["md:flex"]);
  assertEquals(selectorClasses(".max-lg\\:\\[\\&_td\\]\\:block td"), ["max-lg:[&_td]:block"]);
  assertEquals(selectorClasses(".group-open\\:x:is(:where(.group) *)"), ["group-open:x", "group"]);
  assertEquals(selectorClasses('a[href$=".pdf"]'), []);
  assertEquals(selectorClasses(".\\32 xl\\:p-1"), ["2xl:p-1"]);
});

Deno.test("a page keeps the rules of its classes, in order and inside their at-rules", () => {
  const index = indexStylesheet(CSS);
  const css = criticalCss(index, new Set(["flex", "text-red", "sm:flex", "max-lg:[&_td]:block", "shadow", "md:grid"]));
  assertEquals(
    css,
    "@layer theme,base,utilities;" +
      "@layer theme{:root,:host{--color-red:red}}" +
      "@layer base{*,:after{box-sizing:border-box}h1{font-size:inherit}}" +
      "@layer utilities{.flex{display:flex}.text-red{color:var(--color-red)}" +
      ".md\\:grid{@media (min-width:48rem){display:grid}}.max-lg\\:\\[\\&_td\\]\\:block td{display:block}" +
      "@media (min-width:40rem){.sm\\:flex{display:flex}}}" +
      "@media print{body>header{display:none}}" +
      '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 transparent}' +
      ".shadow{box-shadow:var(--tw-shadow)}",
  );
});

Deno.test("custom properties are kept through the properties that refer to them", () => {
  const css = criticalCss(indexStylesheet(CSS), new Set(["gap"]));
  assert(css.includes(":root,:host{--spacing:.25rem;--gap:calc(var(--spacing) * 2)}"), css);
  assert(!css.includes("--color-red"), css);
});

Deno.test("pointer, focus and print styles come with their classes; a selector needs all of its classes", () => {
  const index = indexStylesheet(CSS);
  const css = criticalCss(index, new Set(["hover:text-red", "hover:underline", "group-open:rotate-180"]));
  assert(css.includes(".hover\\:text-red:hover{color:var(--color-red)}"), css);
  assert(css.includes("@media (hover:hover){.hover\\:underline:hover{text-decoration-line:underline}}"), css);
  assert(css.includes("@media print{body>header{display:none}}"), "print styles that need no class are kept");
  assert(!css.includes("rotate-180"), "the group is not on the page");
  assert(criticalCss(index, new Set(["group", "group-open:rotate-180"])).includes("rotate-180"));
  assert(!criticalCss(index, new Set(["flex"])).includes("hover"), "not without their classes");
});

Deno.test("a page keeps the rules of the classes its islands name, kept apart per set of islands", () => {
  const index = { ...indexStylesheet(CSS), islands: { Saver: ["text-blue", "hover:underline"], Other: ["gap"] } };
  const html = '<p class="flex">a</p>';
  const alone = criticalCssOf(index, html);
  assert(!alone.includes("text-blue") && !alone.includes("hover"), alone);
  const withSaver = criticalCssOf(index, html, ["Saver"]);
  assertEquals(withSaver, criticalCss(index, new Set(["flex", "text-blue", "hover:underline"])));
  assertEquals(criticalCssOf(index, html), alone, "the page without the island keeps its own stylesheet");
  assertEquals(
    criticalCssOf(index, html, ["Saver", "Other"]),
    criticalCss(index, new Set(["flex", "text-blue", "hover:underline", "gap"])),
  );
  assertEquals(criticalCssOf(index, html, ["Unknown"]), alone, "an island the index does not know adds nothing");
});

Deno.test("the classes of a page are read from its class attributes, entities decoded", () => {
  const html = '<div class="flex max-lg:[&amp;_td]:block"><p class=" text-red  ">x</p><a href="/a.b">y</a></div>';
  assertEquals([...classesOf(html)].sort(), ["flex", "max-lg:[&_td]:block", "text-red"]);
});

Deno.test("criticalCssOf gives a page the same stylesheet however often it is asked", () => {
  const index = indexStylesheet(CSS);
  const html = '<p class="text-red flex">a</p>';
  const expected = criticalCss(index, classesOf(html));
  assertEquals(criticalCssOf(index, html), expected);
  assertEquals(criticalCssOf(index, '<p class="flex text-red">b</p>'), expected);
});

Deno.test("criticalCssOf keeps one stylesheet per set of classes, whatever order or attributes they come in", () => {
  const index = indexStylesheet(CSS);
  const pages = [
    '<p class="text-red flex">a</p><p class="gap">b</p>',
    '<p class="gap">b</p><p class="flex text-red">a</p>',
    '<p class="gap">b</p><p data-class="text-blue" class="flex">a</p><i class="text-red">c</i>',
    '<p class="gap"></p><p\nclass="flex text-red  gap">a</p><span class="gap"></span>',
    '<p class="gap">class="sm:flex"</p><p class="flex text-red">a</p>',
  ];
  for (const html of pages) assertEquals(criticalCssOf(index, html), criticalCss(index, classesOf(html)));
  assertEquals(new Set(pages.map((html) => criticalCssOf(index, html))).size, 1);
  const other = '<p class="gap"></p><p class="flex text-blue">a</p>';
  assertEquals(criticalCssOf(index, other), criticalCss(index, classesOf(other)));
  assert(criticalCssOf(index, other) !== criticalCssOf(index, pages[0]));
});
