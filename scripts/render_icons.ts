/**
 * Renders the app icons of the web app manifest (docs/decisions.md, Installable and offline, "Icons") from their SVG
 * sources in `static/icons/` to the PNGs the manifest names, with Debian's Chromium (`CHROMIUM_PATH`, default
 * `/usr/bin/chromium`) through playwright-core: `icon-192.png` and `icon-512.png` (rounded, transparent corners),
 * `icon-maskable-512.png` and `apple-touch-icon.png` (180 px; full bleed, the mark inside the maskable safe zone).
 * Run it after changing an SVG: `deno run -A scripts/render_icons.ts`; the PNGs are committed.
 */
import { chromium } from "playwright-core";

const dir = new URL("../static/icons/", import.meta.url);

const RENDERS = [
  { source: "icon.svg", out: "icon-192.png", size: 192 },
  { source: "icon.svg", out: "icon-512.png", size: 512 },
  { source: "icon-maskable.svg", out: "icon-maskable-512.png", size: 512 },
  { source: "icon-maskable.svg", out: "apple-touch-icon.png", size: 180 },
];

const browser = await chromium.launch({
  executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  for (const { source, out, size } of RENDERS) {
    const svg = await Deno.readTextFile(new URL(source, dir));
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const html = `<html><body style="margin:0;background:transparent">` +
      svg.replace("<svg ", `<svg width="${size}" height="${size}" style="display:block" `) + `</body></html>`;
    await page.setContent(html);
    await Deno.writeFile(new URL(out, dir), await page.screenshot({ omitBackground: true, type: "png" }));
    await page.close();
    console.log(`static/icons/${out}: ${size} × ${size}`);
  }
} finally {
  await browser.close();
}
