/**
 * The confirmation dialog of the admin tables (`components/ConfirmDialog.tsx`) in Chromium:
 * deleting a coupon asks first; Escape and Cancel keep it, "Yes, delete" removes it without a
 * reload, and from a search on a phone the search stays as it was. axe-core checks the open dialog.
 */
import { CouponCreateSchema, createCoupon, listCoupons } from "@/lib/coupons/coupons.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, hydrated, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("an admin deletes a coupon only after confirming in the dialog", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const admin = await createTestUser(t, "admin");
  for (const code of ["KEEPME", "DROPME"]) {
    await createCoupon(t.kv, CouponCreateSchema.parse({ code, discountType: "percentage", discountValue: 10 }));
  }
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/coupons`);
  await hydrated(page);
  const row = page.getByRole("row", { name: /DROPME/ });
  await row.waitFor();

  const dialog = page.getByRole("dialog", { name: "Delete this coupon?" });
  await row.getByRole("button", { name: "Delete DROPME" }).click();
  await dialog.getByText("The coupon DROPME will be removed for good").waitFor();
  await assertAccessible(page, "admin coupons: confirm dialog");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await row.getByRole("button", { name: "Delete DROPME" }).click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "hidden" });
  assertEquals((await listCoupons(t.kv)).map((c) => c.code).sort(), ["DROPME", "KEEPME"]);

  await row.getByRole("button", { name: "Delete DROPME" }).click();
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("Coupon DROPME deleted.").waitFor();
  await row.waitFor({ state: "detached" });
  assertEquals((await listCoupons(t.kv)).map((c) => c.code), ["KEEPME"]);
});

Deno.test("hydrated on a phone, a coupon deleted from a search leaves the search as it was", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const admin = await createTestUser(t, "admin");
  for (const code of ["SAVE20", "SAVE50", "DIWALI10"]) {
    await createCoupon(t.kv, CouponCreateSchema.parse({ code, discountType: "percentage", discountValue: 10 }));
  }
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/coupons?search=save`);
  await hydrated(page);
  await page.getByRole("row").filter({ hasText: "SAVE50" }).getByRole("button", { name: "Delete SAVE50" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this coupon?" });
  await assertAccessible(page, "a coupon's delete dialog from a search at 360 px");
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("Coupon SAVE50 deleted.").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("search"), "save");
  assertEquals(await page.getByLabel("Search by code").inputValue(), "save");
  await page.getByRole("row").filter({ hasText: "SAVE20" }).waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: "DIWALI10" }).count(), 0, "still the search");
  assertEquals((await listCoupons(t.kv)).map((c) => c.code).sort(), ["DIWALI10", "SAVE20"]);
});
