/**
 * The poster's list as a spreadsheet (docs/decisions.md, Applications, "The applicants as a spreadsheet"): the
 * applications of one tab and search, in the poster's list's order and with what the poster's list shows (e-mail
 * and phone only from shortlisting on, nothing sent by one who withdrew), as a UTF-8 CSV file with a byte order mark
 * (so that a spreadsheet app reads Hindi names) and CRLF line ends, its header in the reader's language. Every cell
 * that a spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, a tab or a carriage return) is written with
 * a leading `'` (`csv-stringify`'s `escape_formulas`), since applicants write the answers and names.
 */
import { stringify } from "csv-stringify/sync";
import { istToday, toIstInput } from "@/lib/dates.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import type { User } from "@/lib/users/users.ts";
import { posterApplicationIds, posterListing, posterViews } from "@/lib/applications/applications.ts";
import { checkMovesAllowed } from "@/lib/applications/policy.ts";
import { type ApplicationStatus, MAX_PAGE, type PosterApplication } from "@/lib/applications/schema.ts";

/** The file: its name (`applicants-<title>-<IST day>.csv`) and its bytes, read `MAX_PAGE` records at a time. */
export interface ApplicantsCsv {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** A moment as a spreadsheet sorts and reads it: `YYYY-MM-DD HH:mm` in IST; "" for none. */
const istCell = (iso: string | null) => toIstInput(iso).replace("T", " ");

/**
 * The CSV of internship `internshipId`'s applications in `status` (all, in course order, when absent) matching every
 * word of `search`, for `actor`, its header in `t`'s language; resume cells are links under `appUrl` that open for a
 * signed-in poster. The listing and its poster are checked and the list's ids read once (`posterApplicationIds`)
 * before any byte is sent, each row as its application reads when its page of `MAX_PAGE` records is read with the
 * body: an application moved meanwhile is there once, as it is then.
 * @throws NotFoundError for an unknown internship and for anyone but its poster; ForbiddenError `LISTING_TAKEN_DOWN`
 *   or `LISTING_DELETED` for a poster who may no longer move its applications (`checkMovesAllowed`).
 */
export async function applicantsCsv(
  kv: Deno.Kv,
  { internshipId, actor, status, search, t, appUrl }: {
    internshipId: string;
    actor: User;
    status?: ApplicationStatus;
    search: string[];
    t: Translate;
    appUrl: string;
  },
): Promise<ApplicantsCsv> {
  const listing = await posterListing(kv, internshipId, actor);
  const { view, record } = listing;
  checkMovesAllowed(actor, record);
  const ids = await posterApplicationIds(kv, { listing, actor, status, search });
  const questions = view.questions ?? [];
  const asked = new Set(questions.map((question) => question.id));
  const header = [
    t("applications.export.appliedOn"),
    t("applications.export.status"),
    t("applications.export.name"),
    t("applications.export.college"),
    t("applications.export.role"),
    t("applications.export.field"),
    t("applications.export.interests"),
    t("applications.export.email"),
    t("applications.export.phone"),
    t("applications.export.coverNote"),
    ...questions.map((question) => question.text),
    t("applications.export.earlierAnswers"),
    t("applications.export.resume"),
    t("applications.export.answerBy"),
    t("applications.export.updated"),
  ];
  const row = (application: PosterApplication) => {
    const { applicant, answers } = application;
    const answerTo = new Map(answers.map((answer) => [answer.questionId, answer.answer]));
    const earlier = answers.filter((answer) => !asked.has(answer.questionId));
    return [
      istCell(application.createdAt),
      t.dynamic(`applications.status.${application.status}`),
      applicant.name ?? t("common.formerMember"),
      applicant.collegeInstitute ?? "",
      applicant.currentRole ?? "",
      applicant.fieldOfStudy ?? "",
      applicant.fieldInterests.join("; "),
      applicant.email ?? "",
      applicant.contactNumber ?? "",
      application.coverNote,
      ...questions.map((question) => answerTo.get(question.id) ?? ""),
      earlier.map((answer) => `${answer.question}: ${answer.answer}`).join("\n"),
      application.resume ? `${appUrl}/api/applications/${application.id}/resume` : "",
      istCell(application.answerBy),
      istCell(application.updatedAt),
    ];
  };
  const encoder = new TextEncoder();
  const csv = (rows: string[][]) =>
    encoder.encode(stringify(rows, { escape_formulas: true, record_delimiter: "windows" }));
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("\uFEFF"));
      controller.enqueue(csv([header]));
    },
    async pull(controller) {
      const applications = await posterViews(kv, listing, ids.slice(offset, offset + MAX_PAGE));
      if (applications.length > 0) controller.enqueue(csv(applications.map(row)));
      offset += MAX_PAGE;
      if (offset >= ids.length) controller.close();
    },
  });
  const slug = view.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 40).replace(/^-+|-+$/g, "");
  return { filename: `applicants-${slug ? `${slug}-` : ""}${istToday()}.csv`, body };
}
