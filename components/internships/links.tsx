/**
 * The action links the internship pages share: "Post an internship" (for those `canPost`
 * allows), a listing's "Edit" link and its "Close applications" or "Reopen applications" button, whose accessible names
 * carry the title so a list of them reads as "Edit <title>" to screen readers, and the confirmation the page shows
 * after that button (`ApplicationsChangedNotice`).
 */
import { useT } from "@/lib/i18n/context.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { APPLICATIONS_CHANGED_PARAM, describeDeadline } from "@/lib/browser/internship_format.ts";
import { Notice } from "@/components/forms.tsx";

/** The "Post an internship" button-styled link to `/internships/new`. */
export function PostInternshipLink() {
  const t = useT();
  return (
    <a
      href="/internships/new"
      class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
    >
      {t("internships.links.post")}
    </a>
  );
}

/** The "Edit" link to `/internships/{id}/edit`, named "Edit <title>" for assistive technology. */
export function EditInternshipLink({ id, title }: { id: string; title: string }) {
  const t = useT();
  return (
    <a
      href={`/internships/${id}/edit`}
      class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
    >
      {t.rich("internships.links.edit", { title: <span class="sr-only">{` ${title} `}</span> })}
    </a>
  );
}

/**
 * "Close applications" on an open listing, "Reopen applications" on one its poster closed while its deadline is ahead
 * (docs/decisions.md, Open and closed listings, "Closed by the poster"): a plain form posted to
 * `/internships/{id}/applications`, back to `/internships/mine` when `from` says so, at its page `offset`. Nothing for
 * a deleted listing or one whose deadline passed (its edit form moves the deadline).
 */
export function ApplicationsToggle(
  { internship, from, offset = 0 }: {
    internship: Pick<InternshipView, "id" | "title" | "deadline" | "closedAt" | "deletedAt">;
    from?: "mine";
    offset?: number;
  },
) {
  const t = useT();
  if (internship.deletedAt || describeDeadline(internship.deadline)?.closed) return null;
  const intent = internship.closedAt ? "reopen" : "close";
  return (
    <form method="post" action={`/internships/${internship.id}/applications`}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="from" value={from ?? ""} />
      {from && offset > 0 && <input type="hidden" name="offset" value={String(offset)} />}
      <button
        type="submit"
        class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        {t.rich(intent === "close" ? "internships.links.close" : "internships.links.reopen", {
          title: internship.title,
          sr: (chunks) => <span class="sr-only">{chunks}</span>,
        })}
      </button>
    </form>
  );
}

/**
 * The confirmation after "Close applications" or "Reopen applications", when `url` carries `APPLICATIONS_CHANGED_PARAM` (and, on a
 * page of many listings, `id` names this one): closed says that applicants still hear back, within `answerDays` days
 * (`TIMEOUT_AFTER_DEADLINE_DAYS`) or from the platform, for a listing that takes applications here; nothing when the
 * listing's state no longer matches (another tab undid it).
 */
export function ApplicationsChangedNotice(
  { internship, url, answerDays, many = false }: {
    internship: Pick<InternshipView, "id" | "applyMode" | "closedAt">;
    url: URL;
    answerDays: number;
    many?: boolean;
  },
) {
  const t = useT();
  const changed = url.searchParams.get(APPLICATIONS_CHANGED_PARAM);
  if (many && url.searchParams.get("id") !== internship.id) return null;
  if (changed === "closed" && internship.closedAt) {
    return (
      <Notice kind="success" title={t("internships.links.closedTitle")}>
        {internship.applyMode === "platform"
          ? t("internships.links.closedBody", { days: answerDays })
          : t("internships.links.closedBodyLink")}
      </Notice>
    );
  }
  if (changed === "reopened" && !internship.closedAt) {
    return (
      <Notice kind="success" title={t("internships.links.reopenedTitle")}>{t("internships.links.reopenedBody")}</Notice>
    );
  }
  return null;
}
