/**
 * A notification's words kept as catalogue messages and written when read, in the reader's language
 * (docs/decisions.md, Languages, "Stored words"). Imports only the catalogue, so the notifications and the push outbox
 * both use it.
 */
import type { Translate } from "@/lib/i18n/translator.ts";

/** Longest title and body kept, in characters (longer ones are cut with an ellipsis). */
export const TITLE_MAX = 200;
export const BODY_MAX = 1000;

/** `text` of at most `max` characters, cut with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A catalogue message and its values, kept so the words are written when read, in the reader's language. */
export interface MessageRef {
  /** A full catalogue key, e.g. `"notifications.text.paid.title"`. */
  key: string;
  values?: Record<string, string | number>;
}

/**
 * A notification's words as catalogue messages (docs/decisions.md, Languages, "Stored words"): its title's and its
 * body's (no body: an empty one).
 */
export interface NotificationMessage {
  title: MessageRef;
  /**
   * The body's message, its lines' messages (written one a line), or its text as a person wrote it (a reply), the
   * same in every language.
   */
  body?: MessageRef | MessageRef[] | string;
}

/** `ref` in `t`'s language, or null when `t` lacks its message or a value. */
function wordsOf(t: Translate, ref: MessageRef): string | null {
  if (!t.has(ref.key)) return null;
  try {
    return t.dynamic(ref.key, ref.values);
  } catch {
    return null;
  }
}

/** A body of `NotificationMessage` in `t`'s language, or null when `t` lacks a message or a value of it. */
function bodyOf(t: Translate, body: NotificationMessage["body"]): string | null {
  if (body === undefined) return "";
  if (typeof body === "string") return body;
  if (!Array.isArray(body)) return wordsOf(t, body);
  const lines = body.map((line) => wordsOf(t, line));
  return lines.includes(null) ? null : lines.join("\n");
}

/**
 * The title and body of `stored` in `t`'s language (docs/decisions.md, Languages, "Stored words"): written from its
 * `message` when it has one, else as stored.
 */
export function notificationWords(
  stored: { title: string; body: string; message?: NotificationMessage },
  t: Translate,
): { title: string; body: string } {
  const { message } = stored;
  if (!message) return { title: stored.title, body: stored.body };
  const title = wordsOf(t, message.title);
  const body = bodyOf(t, message.body);
  return title === null || body === null
    ? { title: stored.title, body: stored.body }
    : { title: clip(title, TITLE_MAX), body: clip(body, BODY_MAX) };
}
