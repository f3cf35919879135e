/**
 * A person's notification settings (docs/decisions.md, Notifications, "Channels"; docs/api.md, Settings): for each
 * notification type whether it is e-mailed and pushed to their phones (`channels`), and the two older switches, which
 * are the e-mail channels of two types under their first names: `deadlineReminders` is
 * `channels.deadline_reminder.email`, `emailOnReply` is `channels.comment_reply.email`. Every channel is as
 * `channelRule` says until the person changes it (on `/me/settings`, or with the one-click unsubscribe link of a
 * reminder e-mail).
 *
 * Key (owned by this module only): `["settings", userId]` → `StoredSettings`, absent while every setting is the
 * default. Records written before channels existed hold only the two switches, and read as the same channels.
 *
 * The `language` setting (docs/decisions.md, Languages) is the user record's `language`, read and changed here with
 * the channels (in the same atomic write when both change), so the settings are one thing to the person.
 */
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { channelRule, NOTIFICATION_TYPES, type NotificationType } from "@/lib/notifications/types.ts";
import { DEFAULT_LANG, type Lang, LANGUAGES } from "@/lib/i18n/languages.ts";
import { updateUserOps, type User, userKey } from "@/lib/users/users.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** Whether a type is e-mailed and pushed. */
export interface Channel {
  email: boolean;
  push: boolean;
}

/** The channels of every notification type. */
export type Channels = Record<NotificationType, Channel>;

/** The settings as `GET /api/me/settings` answers them. */
export interface Settings {
  deadlineReminders: boolean;
  emailOnReply: boolean;
  channels: Channels;
  /** The language of the person's pages and e-mails. */
  language: Lang;
}

/** What is stored: the channels changed, by type (older records: the two switches only). */
interface StoredSettings {
  deadlineReminders?: boolean;
  emailOnReply?: boolean;
  channels?: Partial<Record<string, Partial<Channel>>>;
}

/** The older switches and the channel each one is. */
const ALIASES = { deadlineReminders: "deadline_reminder", emailOnReply: "comment_reply" } as const;

/** The answer to turning off the e-mail of a type that is always e-mailed. */
export const ALWAYS_EMAILED = REFUSALS.alwaysEmailed;

/** The channels as they are before the person changes anything. */
export function defaultChannels(): Channels {
  return Object.fromEntries(
    NOTIFICATION_TYPES.map((type) => [type, { email: channelRule(type).emailByDefault, push: true }]),
  ) as Channels;
}

const ChannelChangeSchema = z.strictObject({ email: z.boolean().optional(), push: z.boolean().optional() });

/**
 * The body of `PATCH /api/me/settings`: the `language`, any of the older switches, and `channels` with any types and
 * either channel of each, as booleans; absent ones stay. A switch and its channel given both must agree.
 */
export const SettingsChangeSchema = z.strictObject({
  language: z.enum(LANGUAGES).optional(),
  deadlineReminders: z.boolean().optional(),
  emailOnReply: z.boolean().optional(),
  channels: z.strictObject(
    Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, ChannelChangeSchema.optional()])) as Record<
      NotificationType,
      z.ZodOptional<typeof ChannelChangeSchema>
    >,
  ).optional(),
});
export type SettingsChange = z.infer<typeof SettingsChangeSchema>;

const settingsKey = (userId: string): Deno.KvKey => ["settings", userId];

/** The settings a stored record and the user's language mean, defaults filled in. */
function settingsOf(stored: StoredSettings, language: Lang): Settings {
  const channels = defaultChannels();
  for (const [alias, type] of Object.entries(ALIASES)) {
    const value = stored[alias as keyof typeof ALIASES];
    if (value !== undefined) channels[type].email = value;
  }
  for (const type of NOTIFICATION_TYPES) {
    channels[type] = { ...channels[type], ...stored.channels?.[type] };
    if (channelRule(type).email === "always") channels[type].email = true;
  }
  return {
    deadlineReminders: channels.deadline_reminder.email,
    emailOnReply: channels.comment_reply.email,
    channels,
    language,
  };
}

/**
 * The settings of each of `userIds` as `getSettings` reads them, with the person's record (null when gone): both keys
 * of a person side by side, five people a `getMany` (`getManyChunked`). For a delivery that reads many people (the push
 * outbox).
 */
export async function getSettingsOfMany(
  kv: Deno.Kv,
  userIds: string[],
): Promise<Map<string, { settings: Settings; user: User | null }>> {
  const ids = [...new Set(userIds)];
  const entries = await getManyChunked<unknown>(kv, ids.flatMap((id) => [settingsKey(id), userKey(id)]));
  return new Map(ids.map((id, i) => {
    const user = entries[2 * i + 1].value as User | null;
    const stored = (entries[2 * i].value ?? {}) as StoredSettings;
    return [id, { settings: settingsOf(stored, user?.language ?? DEFAULT_LANG), user }];
  }));
}

/** `userId`'s settings, defaults filled in (one KV round trip: the settings and the user's language). */
export async function getSettings(kv: Deno.Kv, userId: string): Promise<Settings> {
  const [settings, user] = await kv.getMany<[StoredSettings, User]>([settingsKey(userId), userKey(userId)]);
  return settingsOf(settings.value ?? {}, user.value?.language ?? DEFAULT_LANG);
}

/** `change` as channel changes by type: the older switches become their channels. @throws InvalidInputError. */
function channelChanges(change: SettingsChange): Partial<Record<NotificationType, Partial<Channel>>> {
  const changes: Partial<Record<NotificationType, Partial<Channel>>> = {};
  for (const [type, channel] of Object.entries(change.channels ?? {}) as [NotificationType, Partial<Channel>][]) {
    changes[type] = { ...channel };
  }
  for (const [alias, type] of Object.entries(ALIASES)) {
    const value = change[alias as keyof typeof ALIASES];
    if (value === undefined) continue;
    const given = changes[type]?.email;
    if (given !== undefined && given !== value) {
      throw new InvalidInputError(REFUSALS.emailsDisagree);
    }
    changes[type] = { ...changes[type], email: value };
  }
  for (const [type, channel] of Object.entries(changes) as [NotificationType, Partial<Channel>][]) {
    if (channel.email === false && channelRule(type).email === "always") throw new InvalidInputError(ALWAYS_EMAILED);
  }
  return changes;
}

/**
 * Changes `userId`'s settings: the language, channels and switches of `change` replace the current ones, in one write
 * checked against what was read (the settings record, and the user record when the language changes). A language
 * given is stored even when it is English and nothing was stored (docs/decisions.md, Languages, "The setting"), so a
 * sign-in on a Hindi page never overrides it. Returns the settings afterwards.
 * @throws InvalidInputError `ALWAYS_EMAILED` for the e-mail of receipts or refunds turned off, or for a switch and its
 *   channel that disagree; NotFoundError when the user is gone; BusyError after 30 s of lost races (nothing written):
 *   a lost race reads again and tries again.
 */
export async function updateSettings(kv: Deno.Kv, userId: string, change: SettingsChange): Promise<Settings> {
  const changes = channelChanges(change);
  let saved: Settings | null = null;
  await retrying(
    async () => {
      const [entry, user] = await kv.getMany<[StoredSettings, User]>([settingsKey(userId), userKey(userId)]);
      if (!user.value) throw new NotFoundError(REFUSALS.userNotFound);
      const current = settingsOf(entry.value ?? {}, user.value.language ?? DEFAULT_LANG);
      const op = kv.atomic();
      let next = entry.value ?? {};
      if (Object.keys(changes).length > 0) {
        const channels: Partial<Record<string, Channel>> = {};
        for (const type of NOTIFICATION_TYPES) channels[type] = { ...current.channels[type], ...changes[type] };
        next = { channels };
        op.check(entry).set(settingsKey(userId), next);
      }
      const language = change.language ?? current.language;
      // A language given is stored even when it is the one no setting means: chosen, it outranks a later sign-in's.
      if (language !== current.language || (change.language && user.value.language === undefined)) {
        updateUserOps(op, user as Deno.KvEntry<User>, { language });
      }
      const ok = (await op.commit()).ok;
      if (ok) saved = settingsOf(next, language);
      return ok;
    },
    RETRY_BUDGET_MS,
  );
  return saved!;
}

/** Whether `settings` let `type` be e-mailed (the caller also needs a verified address). */
export function emailAllowed(settings: Settings, type: NotificationType): boolean {
  return settings.channels[type].email;
}

/** Deletes `userId`'s settings (account deletion); idempotent. */
export async function deleteSettingsOf(kv: Deno.Kv, userId: string): Promise<void> {
  await kv.delete(settingsKey(userId));
}
