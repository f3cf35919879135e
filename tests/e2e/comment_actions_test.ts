/**
 * A comment's actions under an Ungatekeep post on a 360 px phone, in English and Hindi, with and without JavaScript
 * (docs/decisions.md, Comments and reactions): under one's own comment, Delete is named "Delete your comment" for a
 * screen reader (not by the author's name); under another person's, Report and Reply share a line; and deleting
 * one's comment is confirmed in the same words with scripts (the dialog) and without (the box on the page). Every
 * state fits the phone and passes the axe-core check.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { assertFitsPhone, phoneContext } from "@/tests/helpers/phone.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { type MessageKey, translatorFor } from "@/lib/i18n/catalogue.ts";
import type { Translate, Values } from "@/lib/i18n/translator.ts";

/** A rich message's words as a screen reader reads them, its `<sr>` part included. */
function spoken(tr: Translate, key: MessageKey, values: Values = {}): string {
  return [tr.rich(key, { ...values, sr: (chunks) => chunks.join("") })].flat().join("");
}

/** The top of each link named in `names` inside the article named `article`, in CSS px. */
async function tops(page: Page, article: string, names: string[]): Promise<number[]> {
  const found = page.getByRole("article", { name: article });
  return await Promise.all(names.map(async (name) => {
    const box = await found.getByRole("link", { name, exact: true }).boundingBox();
    assert(box, `"${name}" is drawn`);
    return Math.round(box.y);
  }));
}

Deno.test("on a phone, in English and Hindi, with and without JavaScript: Delete your comment, Report and Reply on one line, one wording to confirm", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const sara = await createTestUser(t, "user", { name: "Sara Khan" });
  const ravi = await createTestUser(t, "user", { name: "Ravi Kumar" });
  const post = await createPost(t, admin, { title: "How I got my first internship" });
  for (
    const [author, content] of [[ravi, "Start with the OA practice sets."], [sara, "Thanks, this helped."]] as const
  ) {
    await createComment(t.kv, {
      postId: post.id,
      author: author.user,
      input: { content },
      appUrl: t.services.config.appUrl,
    });
  }
  await using browser = await openBrowser();

  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    const mine = tr("ungatekeep.discussion.commentBy", { name: "Sara Khan" });
    const theirs = tr("ungatekeep.discussion.commentBy", { name: "Ravi Kumar" });
    const deleteYours = spoken(tr, "ungatekeep.discussion.deleteYours");
    const yesDelete = tr("common.yesDelete");
    for (const javaScript of [true, false]) {
      const label = `${lang}, ${javaScript ? "with" : "without"} JavaScript`;
      const context = await phoneContext(browser, { javaScriptEnabled: javaScript });
      await signInBrowser(context, t.origin, sara);
      const page = await context.newPage();
      const url = `${t.origin}/ungatekeep/${post.id}?lang=${lang}`;
      if (javaScript) await openHydrated(page, url);
      else await page.goto(url);
      const accessible = javaScript ? assertAccessible : assertAccessibleWithoutScript;

      const own = page.getByRole("article", { name: mine });
      await own.getByRole("link", { name: deleteYours, exact: true }).waitFor();
      assertEquals(
        await own.getByRole("link", { name: spoken(tr, "ungatekeep.discussion.delete", { name: "Sara Khan" }) })
          .count(),
        0,
        `${label}: one's own Delete does not name oneself`,
      );
      const [report, reply] = await tops(page, theirs, [
        spoken(tr, "ungatekeep.discussion.report", { name: "Ravi Kumar" }),
        spoken(tr, "ungatekeep.discussion.reply", { name: "Ravi Kumar" }),
      ]);
      assertEquals(report, reply, `${label}: Report and Reply share a line`);
      await assertFitsPhone(page, `the post, ${label}`);
      await accessible(page, `the post, ${label}`);

      await own.getByRole("link", { name: deleteYours, exact: true }).click();
      const confirmation = javaScript
        ? page.getByRole("dialog", { name: tr("ungatekeep.discussion.deleteTitle") })
        : page.getByRole("region", { name: tr("ungatekeep.discussion.deleteTitle") });
      await confirmation.getByRole("button", { name: yesDelete, exact: true }).waitFor();
      await assertFitsPhone(page, `the delete confirmation, ${label}`);
      await accessible(page, `the delete confirmation, ${label}`);
      await context.close();
    }
  }
});
