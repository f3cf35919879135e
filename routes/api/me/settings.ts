/**
 * `GET /api/me/settings` and `PATCH /api/me/settings` `{deadlineReminders?, emailOnReply?}` (session) →
 * `{settings}`, both on by default (docs/api.md, Settings; docs/decisions.md, Notifications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SettingsSchema } from "@/lib/openapi/resources.ts";
import { getSettings, SettingsChangeSchema, updateSettings } from "@/lib/settings/settings.ts";

const Answer = z.strictObject({ settings: SettingsSchema });

export const apiDocs = describeRoute({
  GET: {
    summary: "Your e-mail settings",
    access: ["session"],
    responses: { 200: { description: "The settings", schema: Answer } },
  },
  PATCH: {
    summary: "Change your e-mail settings",
    description: "Absent fields keep their value.",
    access: ["session"],
    body: SettingsChangeSchema,
    responses: { 200: { description: "The settings afterwards", schema: Answer }, 400: "Not booleans" },
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
