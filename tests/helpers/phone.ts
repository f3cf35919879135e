/**
 * Phone layout checks for browser tests: the 360 px phone (what Android draws with Debian's Noto fonts) and the
 * defects a page can have on it: the page wider than the screen, an element sticking out of it, a region that hides
 * part of its content off-screen (a table wider than the phone), and a short word broken mid-word because its box
 * was squeezed; and the images of its first screen that load lazily.
 */
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";

/** The phone's viewport in CSS px. */
export const PHONE = { width: 360, height: 740 };

/** The phone's context options: its viewport, a touch screen and the mobile viewport rules. */
export const PHONE_CONTEXT: BrowserContextOptions = { viewport: PHONE, isMobile: true, hasTouch: true };

/**
 * A browser context on the phone (`PHONE_CONTEXT`), with `options` besides (e.g. `javaScriptEnabled: false`).
 * `browser` is a test's `openBrowser()` (or a Chromium of its own).
 */
export function phoneContext(
  browser: { newContext(options?: BrowserContextOptions): Promise<BrowserContext> },
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE_CONTEXT, ...options });
}

/**
 * Fails when the page scrolls sideways: the document's `scrollWidth` over its `clientWidth`. Not over `innerWidth`:
 * with the mobile viewport rules (`PHONE_CONTEXT`) the browser zooms out to show a page wider than the phone, and
 * `innerWidth` grows with it, so that comparison never fails. `label` names the page (its address unless given).
 */
export async function assertNoSidewaysScroll(page: Page, label = page.url()): Promise<void> {
  const [scroll, width] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert(scroll <= width, `${label} scrolls sideways: ${scroll} px on a ${width} px screen`);
}

/**
 * A word narrower than this (CSS px) fits a line of any box on a phone page, so it must never break mid-word: when
 * it does, its box was squeezed by the words beside it. Longer ones (a pasted URL) may break anywhere.
 */
export const UNBREAKABLE_WORD_PX = 240;

/**
 * What breaks the phone layout on the page as shown, one line each (empty when nothing does):
 * - the document scrolls sideways (`scrollWidth` over `clientWidth`);
 * - a visible element sticks out of the viewport on either side (elements inside a box that clips or scrolls are
 *   judged by that box);
 * - a box that scrolls sideways has content beyond its edge (a table column or action off-screen), except a `pre`;
 * - a word (a run of letters and digits, with the dots, @, _, + and apostrophes of names and e-mail addresses; code
 *   is left out) narrower than `UNBREAKABLE_WORD_PX` is drawn on two lines;
 * - a radio button or checkbox is drawn narrower than it is tall (squeezed by a label that wraps beside it);
 * - a bordered box's legend that the border runs through (not floated into the box) wraps onto two lines, so the
 *   border is drawn between them.
 */
export function layoutDefects(page: Page): Promise<string[]> {
  return page.evaluate((wordLimit) => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const defects: string[] = [];
    const name = (el: Element) => {
      const classes = [...el.classList].slice(0, 4).join(".");
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${classes ? `.${classes}` : ""}> "${text}"`;
    };
    if (root.scrollWidth > width) defects.push(`the page is ${root.scrollWidth} px wide on a ${width} px screen`);
    const clips = (el: Element) => getComputedStyle(el).overflowX !== "visible";
    const insideClip = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (clips(up)) return true;
      return false;
    };
    const hiddenForSight = (el: Element, rect: DOMRect) =>
      (rect.width <= 1 && rect.height <= 1) || getComputedStyle(el).clip === "rect(0px, 0px, 0px, 0px)";
    for (const el of document.body.querySelectorAll("*")) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || hiddenForSight(el, rect)) continue;
      if ((rect.right > width + 0.5 || rect.left < -0.5) && !insideClip(el)) {
        defects.push(`${name(el)} sticks out: ${Math.round(rect.left)} to ${Math.round(rect.right)} px`);
      }
      if (el.matches('input[type="radio"], input[type="checkbox"]') && rect.width + 0.5 < rect.height) {
        defects.push(`${name(el.closest("label") ?? el)} squeezes its control to ${rect.width.toFixed(1)} px wide`);
      }
      const style = getComputedStyle(el);
      if (el.matches("fieldset > legend:first-of-type") && style.float === "none") {
        const box = getComputedStyle(el.parentElement!);
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
        if (box.borderTopStyle !== "none" && parseFloat(box.borderTopWidth) > 0 && tops.size > 1) {
          defects.push(`${name(el)} wraps onto ${tops.size} lines across its box's border`);
        }
      }
      if (
        (style.overflowX === "auto" || style.overflowX === "scroll") && el.tagName !== "PRE" &&
        el.scrollWidth > el.clientWidth + 1
      ) {
        defects.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth} px of its content off-screen`);
      }
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, pre, code, textarea, svg")) continue;
      if (!parent.checkVisibility({ visibilityProperty: true })) continue;
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/[\p{L}\p{M}\p{N}.@_'’+]{2,}/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.top / 4)));
        if (lines.size < 2) continue;
        const wordWidth = rects.reduce((sum, r) => sum + r.width, 0);
        if (wordWidth < wordLimit) defects.push(`"${match[0]}" breaks mid-word in ${name(parent)}`);
      }
    }
    return defects;
  }, UNBREAKABLE_WORD_PX);
}

/**
 * The images in the page's first screen that are marked `loading="lazy"`, by `src` (empty when none): a lazy image
 * waits for layout before it is fetched, which delays the first screen's largest paint.
 */
export function lazyFirstScreenImages(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.images]
      .filter((img) => img.loading === "lazy" && img.checkVisibility())
      .filter((img) => img.getBoundingClientRect().top < innerHeight)
      .map((img) => `lazy image in the first screen: ${img.getAttribute("src")?.slice(0, 80)}`)
  );
}

/** Fails when `layoutDefects` finds anything on the page; `label` names the page and its state. */
export async function assertFitsPhone(page: Page, label: string): Promise<void> {
  assertEquals(await layoutDefects(page), [], `${label} does not fit a ${PHONE.width} px phone`);
}
