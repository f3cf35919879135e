/**
 * `GET` and `PATCH /api/me/settings`: the language of the person's pages and e-mails (docs/decisions.md, Languages)
 * and the e-mail and push channel of every notification type; its `apiDocs` below are its description (docs/api.md,
 * Settings; docs/decisions.md, Notifications, "Channels").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { SettingsSchema } from "@/lib/openapi/resources.ts";
import { ALWAYS_EMAILED, getSettings, SettingsChangeSchema, updateSettings } from "@/lib/settings/settings.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { channelRule, NOTIFICATION_TYPES } from "@/lib/notifications/types.ts";

/** Writes fall under the per-person limit `settings` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "settings" };

const Answer = z.strictObject({ settings: SettingsSchema });

/** The types whose e-mail is on until the person turns it off, as the description lists them. */
const EMAIL_ON = new Intl.ListFormat("en").format(
  NOTIFICATION_TYPES.filter((type) => channelRule(type).emailByDefault).map((type) => `\`${type}\``),
);

export const apiDocs = describeRoute({
  section: "Settings",
  GET: {
    summary: "Your language and notification settings",
    description: "`language` (`en` or `hi`), and a channel pair (`email`, `push`) for every notification type: push " +
      `on; e-mail on for ${EMAIL_ON}, off for the rest until turned on. ` +
      "`deadlineReminders` is `channels.deadline_reminder.email` and `emailOnReply` is `channels.comment_reply.email`.",
    access: ["session"],
    responses: { 200: { description: "The settings", schema: Answer } },
  },
  PATCH: {
    summary: "Change your language and notification settings",
    description: "Absent fields keep their value. `language` (`en` or `hi`) is the language of your pages and " +
      "e-mails, kept as your choice even when it is the English you had without one (a later sign-in on a Hindi page " +
      "then changes nothing); the rest are booleans, no other fields or types. A switch and its channel that disagree, or the " +
      `e-mail of \`purchase_paid\` or \`purchase_refunded\` turned off: 400 (${ALWAYS_EMAILED}).`,
    access: ["session"],
    body: SettingsChangeSchema,
    responses: {
      200: { description: "The settings afterwards", schema: Answer },
      400: "Not booleans, an unknown type or language, a switch and its channel that disagree, or receipts' e-mail " +
        "turned off",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ settings: await getSettings(ctx.state.services.kv, ctx.state.user.id) });
  },

  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const change = await readBody(req, SettingsChangeSchema);
    return Response.json({ settings: await updateSettings(ctx.state.services.kv, ctx.state.user.id, change) });
  },
});
