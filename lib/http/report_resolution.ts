/**
 * The admin's plain form resolving a reported target's open reports (docs/decisions.md, Trust, "Reports"), posted to
 * the page it is on: the reports list (`/admin/reports`, with its query) or the target's page
 * (`/admin/reports/{kind}/{targetId}`). Both routes' `POST` answer through `resolveFromForm`: a resolution goes back to
 * the form's `from` (303, with `done=` and `held=1`); a form sent without its action, or with a note too long, is
 * refused at the form, its note kept, by the page rendering itself again.
 */
import { ConflictError, InvalidInputError } from "@/lib/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import {
  DETAILS_MAX,
  REPORT_KINDS,
  type ReportedTarget,
  reportedTarget,
  type ReportKind,
  ResolveSchema,
  resolveTarget,
  TARGET_ID_MAX,
} from "@/lib/reports/reports.ts";
import type { SignedInState } from "@/lib/platform/state.ts";

/**
 * A form refused: its target, the note as typed, the sentence for above the page (`message`: each problem's, in the
 * reader's language), and the sentences at the form's actions (`actionError`: none chosen, or one unknown) and at its
 * note (`noteError`: its length, the only thing a note is refused for), each absent when that part was fine. `open`
 * is the target as the open list shows it, for a list page that lacks it to draw its card and form (the note kept);
 * null when it has no open reports any more, which `message` then says alone (there is no form to keep the note in).
 */
export interface ResolveRefusal {
  kind: string;
  targetId: string;
  note: string;
  message: string;
  actionError?: string;
  noteError?: string;
  open: ReportedTarget | null;
}

/**
 * Resolves the open reports the posted form names (fields `kind`, `targetId`, `action`, `note`, `from`) for the admin
 * of `state` (the admin middleware checked the role): a 303 back to `from` (a path under `/admin/reports`, else the
 * list) with `done=` (how many were resolved, and `held=1` when a dismissed listing stays held), or with `problem=`
 * when the action cannot be done (`organization`: an organization is never deleted; `resolving`: another admin is at
 * it; `resolved`: none was open any more, resolved meanwhile); a missing or unknown action, or a note over 1,000
 * characters (`DETAILS_MAX`), is a refusal for the page to show at the form, each said at its part, or, when the target
 * has no open reports any more (resolved meanwhile), or none ever (an unknown kind or target, or a target id longer
 * than any report names: `TARGET_ID_MAX`), a refusal saying that.
 * Other errors are the domain's (see `resolveTarget`).
 */
export async function resolveFromForm(req: Request, state: SignedInState): Promise<Response | ResolveRefusal> {
  const form = await readFormFields(req, ["kind", "targetId", "action", "note", "from"]);
  const from = reportsPage(form.from);
  const back = (key: string, value: string, held = false) => {
    const url = new URL(from, "http://x");
    url.searchParams.set(key, value);
    if (held) url.searchParams.set("held", "1");
    return seeOther(`${url.pathname}?${url.searchParams}`);
  };
  const body = ResolveSchema.safeParse({ action: form.action, note: form.note });
  // A target id longer than any report names has no reports (and makes no KV key: keys hold at most 2 KiB).
  const known = (REPORT_KINDS as readonly string[]).includes(form.kind) && form.targetId.length <= TARGET_ID_MAX;
  const kind = known ? form.kind as ReportKind : null;
  if (!body.success || !kind) {
    const refused = { kind: form.kind, targetId: form.targetId, note: form.note };
    const target = kind ? await reportedTarget(state.services.kv, { kind, targetId: form.targetId, t: state.t }) : null;
    if (!target) return { ...refused, message: state.t("common.refusal.noReports"), open: null };
    if (target.status === "resolved") {
      return { ...refused, message: state.t("admin.reports.alreadyResolved"), open: null };
    }
    const { status: _, ...open } = target;
    const wrong = new Set(body.success ? [] : body.error.issues.map((issue) => issue.path[0]));
    const actionError = wrong.has("action") ? state.t("admin.reports.problemAction") : undefined;
    const noteError = wrong.has("note") ? state.t("admin.reports.problemNote", { max: DETAILS_MAX }) : undefined;
    return {
      ...refused,
      message: [actionError, noteError].filter(Boolean).join(" "),
      ...actionError ? { actionError } : {},
      ...noteError ? { noteError } : {},
      open,
    };
  }
  try {
    const { resolved, stillHeld } = await resolveTarget(state.services, {
      kind,
      targetId: form.targetId,
      admin: state.user,
      body: body.data,
    });
    return resolved === 0 ? back("problem", "resolved") : back("done", String(resolved), stillHeld);
  } catch (error) {
    if (error instanceof InvalidInputError) return back("problem", "organization");
    if (error instanceof ConflictError) return back("problem", "resolving");
    throw error;
  }
}

/**
 * `from` when, its dot segments resolved, it is a path on this site under `/admin/reports` (with its query), else the
 * list: `/admin/reports/../..//evil.example` resolves to `//evil.example`, which a browser reads as another host.
 */
function reportsPage(from: string): string {
  const url = new URL(from, "http://x");
  const under = url.origin === "http://x" && /^\/admin\/reports(\/|$)/.test(url.pathname);
  return under ? `${url.pathname}${url.search}` : "/admin/reports";
}
