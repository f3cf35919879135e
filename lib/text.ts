/**
 * Text fields keep only characters a reader can see (docs/decisions.md, Text fields): every
 * name, title, description and other free text a schema accepts starts from `TextSchema`, which
 * strips, before any trimming or length check:
 * - NUL and the other C0 control characters except tab, line feed and carriage return, and DEL;
 * - zero-width characters: U+200B zero-width space, U+2060–U+2064 (word joiner, invisible
 *   operators), U+FEFF (byte-order mark), U+180E;
 * - bidi embeddings, overrides and isolates: U+202A–U+202E, U+2066–U+2069 (they reorder what
 *   follows, the "Trojan Source" trick);
 * - U+200C zero-width non-joiner and U+200D zero-width joiner, except right after a letter or
 *   mark of a non-Latin script (Malayalam, Hindi, Bengali and Persian words need them) or an
 *   emoji (emoji sequences such as 👩‍💻 are joined with U+200D).
 * Stripped, not refused: these characters are invisible, nearly always pasted by accident, and
 * a refusal would name a character the writer cannot see; the stored value is what answers show.
 * A character then keeps at most `MARKS_MAX` combining marks (`capMarks`): a letter carrying hundreds of them
 * ("Zalgo" text) draws them far above and below its line, over the other people's names and words on the page.
 * Line breaks are then stored as line feeds (`\r\n` and a lone `\r` become `\n`): a browser sends a
 * textarea's breaks as `\r\n`, an island or the API as `\n`, and one text must not count as two.
 * Passwords and e-mails are not text fields (a password is kept exactly; an e-mail refuses them).
 */
import { z } from "zod";

const INVISIBLE =
  // Matching control characters is the point of this expression.
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u180E\u200B\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const JOINERS = /[\u200C\u200D]/g;
/** What a joiner may follow: a letter or mark, or an emoji, variation selector 16 or skin tone. */
const JOINABLE = /[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const LATIN = /\p{Script=Latin}/u;

function keepJoiner(text: string, offset: number): boolean {
  const before = [...text.slice(Math.max(0, offset - 2), offset)].at(-1);
  return before !== undefined && JOINABLE.test(before) && !LATIN.test(before);
}

/** `text` without the invisible characters listed above. */
export function stripInvisible(text: string): string {
  const stripped = text.replace(INVISIBLE, "");
  return stripped.replace(JOINERS, (joiner, offset: number, whole: string) => keepJoiner(whole, offset) ? joiner : "");
}

/**
 * How many combining marks (`\p{M}`) one character keeps. The scripts of India need at most three in a row (Hindi
 * ड़ीं: a nukta, a vowel sign, an anusvara) and four with a Vedic accent, as do Urdu's and Vietnamese's; more are
 * stacked to draw over other lines.
 */
export const MARKS_MAX = 4;

/**
 * More than `MARKS_MAX` marks in a row. Format characters between them (joiners, tags) are part of the run: they do not
 * end the stack a font draws.
 */
const MARK_RUN = new RegExp(`(?:\\p{M}\\p{Cf}*){${MARKS_MAX + 1},}`, "gu");
const MARK = /\p{M}/u;

/** `text` with each run of combining marks cut to its first `MARKS_MAX` marks (the format characters among them kept). */
export function capMarks(text: string): string {
  return text.replace(MARK_RUN, (run) => {
    let marks = 0;
    return [...run].filter((char) => !MARK.test(char) || ++marks <= MARKS_MAX).join("");
  });
}

/**
 * `text` as a text field keeps it: without invisible characters (`stripInvisible`), each character with at most
 * `MARKS_MAX` combining marks (`capMarks`).
 */
export function readableText(text: string): string {
  return capMarks(stripInvisible(text));
}

/** `text` with its line breaks as line feeds (`\r\n` and a lone `\r` become `\n`). */
function lineFeeds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * A string with the invisible characters stripped, the combining marks capped (`readableText`) and line breaks as line
 * feeds; chain `.trim()`, `.min()`, `.max()` after it.
 */
export const TextSchema = z.string().overwrite((text) => lineFeeds(readableText(text)));
