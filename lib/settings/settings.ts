/**
 * A person's e-mail settings (docs/decisions.md, Notifications; docs/api.md, Settings): whether deadline reminders
 * are sent, and whether a reply to their comment is e-mailed. Both are on until the person turns them off (on
 * `/me/settings`, or with the one-click unsubscribe link of a reminder e-mail).
 *
 * Key (owned by this module only): `["settings", userId]` → `Settings`, absent while every setting is the default.
 */
import { z } from "zod";
import { ConflictError } from "@/lib/errors.ts";

/** The settings: `deadlineReminders` (the daily reminder e-mail), `emailOnReply` (an e-mail per reply). */
export interface Settings {
  deadlineReminders: boolean;
  emailOnReply: boolean;
}

/** Every setting as it is before the person changes it. */
export const DEFAULT_SETTINGS: Settings = { deadlineReminders: true, emailOnReply: true };

/** The body of `PATCH /api/me/settings`: any of the settings, as booleans; absent ones stay. */
export const SettingsChangeSchema = z.strictObject({
  deadlineReminders: z.boolean().optional(),
  emailOnReply: z.boolean().optional(),
});
export type SettingsChange = z.infer<typeof SettingsChangeSchema>;

const settingsKey = (userId: string): Deno.KvKey => ["settings", userId];

/** `userId`'s settings, defaults filled in. */
export async function getSettings(kv: Deno.Kv, userId: string): Promise<Settings> {
  const entry = await kv.get<Partial<Settings>>(settingsKey(userId));
  return { ...DEFAULT_SETTINGS, ...entry.value };
}

/**
 * Changes `userId`'s settings: the fields of `change` replace the current ones, in a write checked against what was
 * read. Returns the settings afterwards.
 * @throws ConflictError after 10 lost races (nothing written).
 */
export async function updateSettings(kv: Deno.Kv, userId: string, change: SettingsChange): Promise<Settings> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv.get<Partial<Settings>>(settingsKey(userId));
    const next: Settings = { ...DEFAULT_SETTINGS, ...entry.value, ...change };
    if ((await kv.atomic().check(entry).set(settingsKey(userId), next).commit()).ok) return next;
  }
  throw new ConflictError("Your settings changed while saving; try again");
}

/** Deletes `userId`'s settings (account deletion); idempotent. */
export async function deleteSettingsOf(kv: Deno.Kv, userId: string): Promise<void> {
  await kv.delete(settingsKey(userId));
}
