/**
 * "Alert me" on `/internships` and `/opportunities` (docs/decisions.md, Alerts): saves the filters the page shows now
 * (read from the address, which the filter island keeps current) as a daily alert with `POST /api/me/alerts`, and says
 * where to manage it. Without JavaScript the button posts the page's address to `/me/alerts`, which saves the same alert
 * (docs/decisions.md, Islands, "Forms work without JavaScript"). A guest's button is a link to sign in that comes back
 * to this page. (The list's RSS feed of the
 * same filters is linked once, under the results.)
 */
import { useEffect, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import { alertQuery } from "@/lib/browser/alert_query.ts";
import type { AlertKind } from "@/lib/alerts/alerts.ts";

/** Props: what the alert watches, whether someone is signed in, and the page's address when it was rendered. */
export interface AlertMeProps {
  kind: AlertKind;
  signedIn: boolean;
  /** Path and query of the page as rendered (the sign-in link before hydration). */
  path: string;
  /** The messages (`ALERT_ME_TEXT`). */
  text: IslandText;
}

/** The messages this island uses (its `text`). */
export const ALERT_ME_TEXT = ["me.alertMe.", "common.errors.", ...refusalPrefixes("tooManyAlerts")] as const;

const BUTTON = "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm " +
  "font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600";

export default function AlertMe({ kind, signedIn, path, text }: AlertMeProps) {
  const t = translatorOf(text);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [here, setHere] = useState(path);
  useEffect(() => setHere(location.pathname + location.search), []);
  const current = () => {
    const now = location.pathname + location.search;
    setHere(now);
    return now;
  };

  const save = async () => {
    const now = current();
    setBusy(true);
    setMessage(null);
    const query = alertQuery(kind, now.includes("?") ? now.slice(now.indexOf("?")) : "");
    const res = await fetchJson("/api/me/alerts", { body: { kind, query, frequency: "daily" } });
    setBusy(false);
    setMessage(
      res.ok ? { ok: true, text: t("me.alertMe.saved") } : { ok: false, text: failureMessage(t, res) },
    );
  };

  return (
    <div class="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      {signedIn
        ? (
          <form
            method="post"
            action="/me/alerts"
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <input type="hidden" name="kind" value={kind} />
            <input type="hidden" name="from" value={here} />
            <button type="submit" class={BUTTON} disabled={busy}>
              <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-none stroke-current" stroke-width="1.6">
                <path d="M5 8a5 5 0 0 1 10 0c0 4 1.5 5.5 2 6H3c.5-.5 2-2 2-6Zm3 8.5a2 2 0 0 0 4 0" />
              </svg>
              {t("me.alertMe.button")}
            </button>
          </form>
        )
        : (
          <a href={`/sign-in?${new URLSearchParams({ callbackURL: here })}`} class={BUTTON}>
            {t("me.alertMe.button")}
          </a>
        )}
      <p role="status" class={`w-full ${message?.ok === false ? "text-red-700" : "text-slate-700"}`}>
        {message?.text}
        {message?.ok && (
          <>
            {" "}
            <a href="/me/alerts" class="text-indigo-700 underline">{t("me.alertMe.manage")}</a>
          </>
        )}
      </p>
    </div>
  );
}
