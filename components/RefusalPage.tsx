/**
 * The body of the page a refused plain form gets (docs/decisions.md, Errors and limits, "Plain forms refused"): what
 * went wrong in the reader's language, the field problems the refusal named, when to try again, and the way back to the
 * form. What it says is decided by `plainFormRefusal` (`lib/http/refusal_page.ts`).
 */
import { useT } from "@/lib/i18n/context.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";
import type { PlainFormRefusal, RefusalKind } from "@/lib/http/refusal_page.ts";
import { MessagePage } from "./internships/MessagePage.tsx";

/** The title and the sentence of each kind of refusal. */
const WORDS: Record<RefusalKind, { title: MessageKey; text: MessageKey }> = {
  invalid: { title: "common.refusalPage.invalid.title", text: "common.refusalPage.invalid.text" },
  crossSite: { title: "common.refusalPage.crossSite.title", text: "common.refusalPage.crossSite.text" },
  timeout: { title: "common.refusalPage.timeout.title", text: "common.refusalPage.timeout.text" },
  conflict: { title: "common.refusalPage.conflict.title", text: "common.refusalPage.conflict.text" },
  tooLarge: { title: "common.refusalPage.tooLarge.title", text: "common.refusalPage.tooLarge.text" },
  unreadable: { title: "common.refusalPage.unreadable.title", text: "common.refusalPage.unreadable.text" },
  tooMany: { title: "common.refusalPage.tooMany.title", text: "common.refusalPage.tooMany.text" },
  unavailable: { title: "common.refusalPage.unavailable.title", text: "common.refusalPage.unavailable.text" },
  pathTooLong: { title: "common.refusalPage.pathTooLong.title", text: "common.refusalPage.pathTooLong.text" },
  methodNotAllowed: {
    title: "common.refusalPage.methodNotAllowed.title",
    text: "common.refusalPage.methodNotAllowed.text",
  },
};

/**
 * Why a form was too large and what to do: choose a smaller file for a form that sends files, else shorten what was
 * written; with the limit in MB when known.
 */
function tooLargeText(t: Translate, { limitBytes, sendsFiles }: PlainFormRefusal): string {
  // Whole tenths of a megabyte, down: an upload limit leaves room for the form around the file (5 MB + 64 KB is 5).
  const megabytes = limitBytes === undefined ? undefined : Math.floor(limitBytes / 1024 / 1024 * 10) / 10;
  if (megabytes === undefined) {
    return t(sendsFiles ? "common.refusalPage.tooLarge.text" : "common.refusalPage.tooLarge.textWritten");
  }
  const key = sendsFiles ? "common.refusalPage.tooLarge.textLimit" : "common.refusalPage.tooLarge.textLimitWritten";
  return t(key, { size: t.number(megabytes) });
}

/** One refused form's page. */
export function RefusalPage({ refusal }: { refusal: PlainFormRefusal }) {
  const t = useT();
  const { kind, reason, problems, retryAfterSeconds, back } = refusal;
  const sentence = reason ? t(reason) : kind === "tooLarge" ? tooLargeText(t, refusal) : t(WORDS[kind].text);
  return (
    <MessagePage
      title={t(WORDS[kind].title)}
      error
      link={{ href: back, label: back === "/" ? t("layout.home") : t("common.refusalPage.back") }}
    >
      <p>{sentence}</p>
      {problems.length > 0 && (
        <ul class="mt-3 list-inside list-disc text-left">
          {problems.map((problem, index) => <li key={index}>{fieldText(t, problem)}</li>)}
        </ul>
      )}
      {retryAfterSeconds !== undefined && (
        <p class="mt-2">
          {t("common.refusalPage.tryAgainIn", { minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) })}
        </p>
      )}
    </MessagePage>
  );
}
