/**
 * Browser-safe: a refused API call in the page's language (docs/decisions.md, Languages, "Field errors"). Apart from
 * `lib/browser/fetch_json.ts`, so an island that does not yet speak the page's language carries neither this nor the
 * field sentences.
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { type ApiFailure, fieldWords } from "@/lib/browser/fetch_json.ts";

/**
 * A refusal in one paragraph in `t`'s language (docs/decisions.md, Languages, "Field errors"): the network's failure,
 * each field problem as "Label: sentence" (`labels` names the form's fields, else the JSON name in words), too many
 * attempts, or the server's own English `{error}` (an API's words stay English, introduced in the page's language).
 */
export function failureMessage(
  t: Translate,
  failure: ApiFailure,
  labels: Partial<Record<string, string>> = {},
): string {
  if (failure.status === 0) return t("common.errors.network");
  if (failure.fields.length > 0) {
    return failure.fields
      .map((problem) =>
        t("common.errors.fieldLine", {
          label: labels[problem.field] ?? fieldWords(problem.field),
          sentence: fieldText(t, problem),
        })
      )
      .join(" ");
  }
  if (failure.status === 429) return t("common.errors.tooMany");
  if (!failure.apiError) return t("common.errors.failed", { status: failure.status });
  return t("common.errors.refused", { error: failure.apiError });
}
