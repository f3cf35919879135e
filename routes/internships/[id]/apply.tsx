/**
 * `/internships/{id}/apply`: the application form of an internship that takes applications here (docs/decisions.md,
 * Applications, "Applying"), a plain multipart form that works without JavaScript. A guest is sent to sign in and
 * back. `GET` shows the form, or why one cannot apply (a listing taking applications on its own site, closed, one's
 * own, an unverified e-mail, already applied or withdrawn). `POST` (the resume file, `answers.{questionId}`, `coverNote`) checks
 * every field at once and renders the form again (400) with each problem beside its field; otherwise it applies as
 * `POST /api/internships/{id}/applications` does, with a new resume when one was chosen (it replaces the stored one
 * only when the application is made: `stageResume`), and answers 303 to the
 * internship's page, which then says "Applied on …". A post one cannot make gets the page saying why with the status
 * its API twin answers (docs/api.md, Applications): 404 not found, 403 one's own or an unverified e-mail, 400 closed
 * or applications on its own site, 409 applied already.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { MessagePage } from "@/components/internships/MessagePage.tsx";
import { ApplyForm, type ApplyValues } from "@/components/applications/ApplyForm.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import {
  ALREADY_APPLIED,
  ANSWER_MAX,
  applicationTo,
  applyTo,
  checkApplication,
  CLOSED,
  CLOSED_MEANWHILE,
  COVER_NOTE_MAX,
  TAKES_LINK,
} from "@/lib/applications/applications.ts";
import { refusalText } from "@/lib/refusals.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { checkResume, getResume, type Resume, RESUME_TOO_LARGE, stageResume } from "@/lib/resumes/resumes.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { SignedInState } from "@/lib/platform/state.ts";
import { type RouteOptions, UPLOAD_BODY_LIMIT_BYTES } from "@/lib/platform/route_options.ts";

/**
 * The form takes a resume upload, so a body over the upload limit is refused as a resume over its own limit (the
 * refusal page words it); applying falls under the per-person limit `applications`.
 */
export const routeOptions: RouteOptions = {
  bodyLimitBytes: UPLOAD_BODY_LIMIT_BYTES,
  bodyLimitRefusal: RESUME_TOO_LARGE,
  personLimit: "applications",
};

/** The page: the form (with what was typed and what went wrong), or why one cannot apply. */
type Data =
  | {
    kind: "form";
    internship: InternshipView;
    resume: Resume | null;
    values: ApplyValues;
    errors: Record<string, string>;
    formError?: string;
  }
  | {
    kind: "refused";
    /** The domain's sentence of why one cannot apply, worded for the reader by `refusalText`. */
    refusal: string;
    /** Null when the internship is not found. */
    internshipId: string | null;
    /**
     * The status a post answers with, as the API's twin does: 404, 403, 400 (closed, applications elsewhere), 409
     * (applied already, or closed while applying).
     */
    status: number;
    appliedAt?: string;
    /** When the application was withdrawn (ISO): such an application cannot be sent again. */
    withdrawnAt?: string;
  };

const EMPTY: ApplyValues = { answers: {}, coverNote: "" };

/** Why one cannot apply, from what `checkApplication` or `applyTo` threw; null for anything else. */
function refusalOf(error: unknown, internshipId: string): Extract<Data, { kind: "refused" }> | null {
  if (error instanceof NotFoundError) {
    return { kind: "refused", refusal: error.message, internshipId: null, status: 404 };
  }
  if (error instanceof ForbiddenError) return { kind: "refused", refusal: error.message, internshipId, status: 403 };
  if (error instanceof InvalidInputError && (error.message === TAKES_LINK || error.message === CLOSED)) {
    return { kind: "refused", refusal: error.message, internshipId, status: 400 };
  }
  if (error instanceof ConflictError && error.message === CLOSED_MEANWHILE) {
    return { kind: "refused", refusal: error.message, internshipId, status: 409 };
  }
  return null;
}

/** The page of someone who applied already, or withdrew their application at `withdrawnAt`. */
function alreadyApplied(internshipId: string, appliedAt: string, withdrawnAt?: string): Data {
  return { kind: "refused", refusal: ALREADY_APPLIED, internshipId, status: 409, appliedAt, withdrawnAt };
}

/**
 * The sentence at the file field of a form that goes back with a good file `file` chosen: the page drawn again cannot
 * hold it, so it asks for it again, naming it, and says that the stored resume (`resume`) goes otherwise.
 */
function chooseAgain(t: Translate, resume: Resume | null, file: { name: string }): string {
  return t(resume ? "applications.apply.chooseAgainStored" : "applications.apply.chooseAgain", { name: file.name });
}

/**
 * The problems of the posted form, all at once, by field (empty when it can be sent). When the form goes back for
 * other problems, a good file chosen with it is one too (`chooseAgain`; docs/decisions.md, Applications, "Applying").
 */
async function problemsOf(
  { internship, resume, file, values, t }: {
    internship: InternshipView;
    resume: Resume | null;
    file: { name: string; bytes: Uint8Array } | null;
    values: ApplyValues;
    t: Translate;
  },
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  if (file) {
    try {
      await checkResume(file.bytes);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      errors.file = refusalText(t, error);
    }
  } else if (!resume) errors.file = t("applications.apply.fileMissing");
  for (const question of internship.questions) {
    const answer = values.answers[question.id] ?? "";
    const field = `answers.${question.id}`;
    if (answer.length > ANSWER_MAX) errors[field] = t("applications.apply.tooLong", { max: t.number(ANSWER_MAX) });
    else if (question.required && answer === "") errors[field] = t("applications.apply.answerRequired");
  }
  if (values.coverNote.length > COVER_NOTE_MAX) {
    errors.coverNote = t("applications.apply.tooLong", { max: t.number(COVER_NOTE_MAX) });
  }
  if (file && !errors.file && Object.keys(errors).length > 0) errors.file = chooseAgain(t, resume, file);
  return errors;
}

/** The form's fields as posted: the answers to `internship`'s questions, the cover note and the file (null: none). */
async function postedOf(form: FormData, internship: InternshipView) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.replaceAll("\r\n", "\n").trim() : "";
  };
  const values: ApplyValues = {
    answers: Object.fromEntries(internship.questions.map((q) => [q.id, text(`answers.${q.id}`)])),
    coverNote: text("coverNote"),
  };
  const chosen = form.get("file");
  const file = chosen instanceof File && chosen.size > 0
    ? { name: chosen.name, bytes: new Uint8Array(await chosen.arrayBuffer()) }
    : null;
  return { values, file };
}

/** The form of `internship` for the signed-in person, or why they cannot apply. */
async function formOf(state: SignedInState, internshipId: string): Promise<Data> {
  const { kv } = state.services;
  try {
    const internship = await checkApplication(kv, { internshipId, applicant: state.user });
    const applied = await applicationTo(kv, { userId: state.user.id, internshipId });
    if (applied) {
      const withdrawn = applied.status === "withdrawn" ? applied.history.at(-1)?.at : undefined;
      return alreadyApplied(internshipId, applied.createdAt, withdrawn);
    }
    return { kind: "form", internship, resume: await getResume(kv, state.user.id), values: EMPTY, errors: {} };
  } catch (error) {
    const refusal = refusalOf(error, internshipId);
    if (refusal) return refusal;
    throw error;
  }
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const data = await formOf(ctx.state, ctx.params.id);
    return ctx.render(data, { status: data.kind === "refused" && data.status === 404 ? 404 : 200 });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, files } = ctx.state.services;
    const page = await formOf(ctx.state, ctx.params.id);
    if (page.kind !== "form") return ctx.render(page, { status: page.status });
    const { internship, resume } = page;
    const { values, file } = await postedOf(await readForm(req), internship);
    const errors = await problemsOf({ internship, resume, file, values, t: ctx.state.t });
    if (Object.keys(errors).length > 0) return ctx.render({ ...page, values, errors }, { status: 400 });
    try {
      // A resume sent with the application replaces the stored one only when the application is made.
      const staged = file
        ? await stageResume(kv, files, { userId: ctx.state.user.id, name: file.name, bytes: file.bytes })
        : null;
      const answers = Object.entries(values.answers).filter(([, answer]) => answer !== "")
        .map(([questionId, answer]) => ({ questionId, answer }));
      try {
        await applyTo(kv, {
          internshipId: internship.id,
          applicant: ctx.state.user,
          body: { answers, coverNote: values.coverNote },
        });
      } catch (error) {
        await staged?.settle(false);
        throw error;
      }
      await staged?.settle(true);
      return seeOther(`/internships/${internship.id}?applied=1`);
    } catch (error) {
      if (error instanceof ConflictError && error.message === ALREADY_APPLIED) {
        return ctx.render(alreadyApplied(internship.id, new Date().toISOString()), { status: 409 });
      }
      const refusal = refusalOf(error, internship.id);
      if (refusal) return ctx.render(refusal, { status: refusal.status });
      if (!(error instanceof DomainError)) throw error;
      const stored = await getResume(kv, ctx.state.user.id);
      return ctx.render({
        ...page,
        resume: stored,
        values,
        // The file chosen was not kept (`settle(false)`): sent again without it, the stored resume would go.
        errors: file ? { file: chooseAgain(ctx.state.t, stored, file) } : {},
        // The sentence ends where the message goes on ("…: {error}. Please try again.").
        formError: ctx.state.t("applications.apply.tryAgain", {
          error: refusalText(ctx.state.t, error).replace(/[.।]$/, ""),
        }),
      }, { status: errorResponse(error).status });
    }
  },
});

/** The page's title and sentence of a refusal; the domain's sentence in the reader's language (`refusalText`). */
function refusedPage(t: Translate, data: Extract<Data, { kind: "refused" }>): { title: string; message: string } {
  if (data.internshipId === null) {
    return { title: t("applications.apply.notFoundTitle"), message: t("applications.apply.notFoundMessage") };
  }
  if (data.refusal === ALREADY_APPLIED && data.withdrawnAt) {
    return {
      title: t("applications.apply.withdrawnTitle"),
      message: t("applications.apply.withdrawnMessage", { date: t.date(data.withdrawnAt) }),
    };
  }
  if (data.refusal === ALREADY_APPLIED) {
    return {
      title: t("applications.apply.alreadyTitle"),
      message: t("applications.apply.alreadyMessage", { date: t.date(data.appliedAt ?? new Date().toISOString()) }),
    };
  }
  return { title: t("applications.apply.cannotTitle"), message: refusalText(t, data.refusal) };
}

export default define.page<Data>(function ApplyPage({ data }) {
  const t = useT();
  if (data.kind === "refused") {
    const { title, message } = refusedPage(t, data);
    return (
      <MessagePage
        title={title}
        link={data.internshipId
          ? { href: `/internships/${data.internshipId}`, label: t("applications.apply.back") }
          : { href: "/internships", label: t("applications.apply.browse") }}
      >
        <p>{message}</p>
        {data.refusal === ALREADY_APPLIED && (
          <p class="mt-2">
            <a href="/me/tracker" class="font-medium text-indigo-700 underline">
              {t("applications.apply.openTracker")}
            </a>
          </p>
        )}
      </MessagePage>
    );
  }
  const { internship } = data;
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl [overflow-wrap:anywhere]">
      <PageHead title={t("applications.apply.pageTitle", { title: internship.title })} />
      <a href={`/internships/${internship.id}`} class="text-sm text-indigo-700 underline hover:text-indigo-900">
        ← {internship.title}
      </a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">
        {t("applications.apply.heading", { title: internship.title })}
      </h1>
      <p class="mt-2 text-slate-700">
        {t("applications.apply.lead", {
          organization: internship.organization?.name ?? internship.hiringOrganization,
        })}
      </p>
      <div class="mt-6">
        <ApplyForm
          action={`/internships/${internship.id}/apply`}
          questions={internship.questions}
          resume={data.resume}
          values={data.values}
          errors={data.errors}
          formError={data.formError}
        />
      </div>
    </section>
  );
});
