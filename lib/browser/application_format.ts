/**
 * Browser-safe: how resumes and applications read on the pages (docs/decisions.md, Applications): file sizes, the
 * badge tone of application statuses, and the sentences of the resume form's outcomes.
 */
import type { ApplicationStatus } from "@/lib/applications/schema.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** A size in bytes as people read it in `t`'s language: "820 bytes", "230 KB", "1.8 MB" ("820 बाइट" in Hindi). */
export function formatBytes(t: Translate, bytes: number): string {
  if (bytes < 1024) return t("applications.size.bytes", { size: bytes });
  if (bytes < 1024 * 1024) return t("applications.size.kb", { size: Math.round(bytes / 1024) });
  return t("applications.size.mb", { size: Math.round(bytes / (1024 * 1024) * 10) / 10 });
}

/** What the resume form's outcome codes (`?resume=` after a plain post) say: their kind and catalogue message. */
export const RESUME_OUTCOMES = {
  saved: { kind: "success", key: "applications.resume.saved" },
  deleted: { kind: "success", key: "applications.resume.deleted" },
  notPdf: { kind: "error", key: "common.refusal.resumeNotPdf" },
  tooLarge: { kind: "error", key: "common.refusal.resumeTooLarge" },
  missing: { kind: "error", key: "common.refusal.resumeMissing" },
} as const satisfies Record<string, { kind: "success" | "error"; key: MessageKey }>;

/** An outcome code of the resume form. */
export type ResumeOutcome = keyof typeof RESUME_OUTCOMES;

/** Whether `code` is an outcome of the resume form. */
export function isResumeOutcome(code: string | null): code is ResumeOutcome {
  return code !== null && Object.hasOwn(RESUME_OUTCOMES, code);
}

/** The badge tone of a status: good news indigo, an end red, the rest slate. */
export function statusTone(status: ApplicationStatus): "slate" | "indigo" | "amber" | "red" {
  if (status === "rejected") return "red";
  if (status === "withdrawn") return "slate";
  if (status === "applied") return "amber";
  return "indigo";
}
