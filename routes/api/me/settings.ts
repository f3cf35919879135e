/**
 * `GET /api/me/settings` and `PATCH /api/me/settings` `{language?, deadlineReminders?, emailOnReply?, channels?}`
 * (session) → `{settings}`: the language of the person's pages and e-mails (docs/decisions.md, Languages) and the
 * e-mail and push channel of every notification type (docs/api.md, Settings; docs/decisions.md, Notifications,
 * "Channels").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SettingsSchema } from "@/lib/openapi/resources.ts";
import { getSettings, SettingsChangeSchema, updateSettings } from "@/lib/settings/settings.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `settings` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "settings" };

const Answer = z.strictObject({ settings: SettingsSchema });

export const apiDocs = describeRoute({
  GET: {
    summary: "Your language and notification settings",
    access: ["session"],
    responses: { 200: { description: "The settings", schema: Answer } },
  },
  PATCH: {
    summary: "Change your language and notification settings",
    description: "Absent fields keep their value. `language` (`en` or `hi`) is the language of your pages and " +
      "e-mails. `deadlineReminders` and `emailOnReply` are the e-mail channels " +
      "of `deadline_reminder` and `comment_reply`; receipts and refunds are always e-mailed.",
    access: ["session"],
    body: SettingsChangeSchema,
    responses: {
      200: { description: "The settings afterwards", schema: Answer },
      400: "Not booleans, an unknown type or language, or receipts' e-mail turned off",
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
