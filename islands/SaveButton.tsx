/**
 * The bookmark of an internship or opportunity (docs/decisions.md, Student space): for a signed-in person a toggle
 * button (`aria-pressed`) that saves the listing (`PUT /api/me/saved/{kind}/{id}`) or removes it; for a guest a link
 * to sign in that comes back to this page with `?save=kind:id`, where the button then saves the listing and removes
 * the parameter. Whether a listing is saved comes from `GET /api/me/saved/ids`, read once for the buttons drawn
 * together (asking about their internships only); an internship the person applied to here shows "Applied on …"
 * instead (its tracker item follows the application). Without JavaScript (or before the script and that read arrive)
 * the button is a plain form posting to `/me/tracker`, which saves the listing and shows it on the tracker
 * (docs/decisions.md, Islands, "Forms work without JavaScript").
 */
import { useEffect, useState } from "preact/hooks";
import { appliedOn, loadSavedKeys, markSaved, SAVE_PARAM, type SavedKey, savedKeys } from "@/lib/browser/saved_ids.ts";
import type { SavedKind } from "@/lib/saved/schema.ts";
import { type Lang, LOCALES } from "@/lib/i18n/languages.ts";
import { type ApiFailure, fetchJson } from "@/lib/browser/fetch_json.ts";
import { formatDate } from "@/lib/dates.ts";

/**
 * Props: the listing, its title (for the accessible name), whether someone is signed in, and its words in the page's
 * language (save, saved, applied on, not saved, the save limit's refusal, the listing gone, a write lost to busy
 * writers, too many attempts, and too many with `{when}` to try again) with that language, as
 * `components/SaveListing.tsx` gives them: plain strings, as the filter island that renders this button on every card
 * has no room for the message formatter.
 */
export interface SaveButtonProps {
  kind: SavedKind;
  id: string;
  title: string;
  signedIn: boolean;
  words: readonly string[];
  lang: Lang;
}

/** A path `URL` writes as it stands, without a query (the listing's own page, `/{kind}/{id}`). */
const PLAIN_PATH = /^(\/[A-Za-z0-9_-]+)+$/;

/** `path` (this page) with the save parameter for `key`, as the sign-in page's `callbackURL`. */
function signInHref(path: string, key: SavedKey): string {
  let callback: string;
  if (PLAIN_PATH.test(path)) callback = `${path}?${new URLSearchParams({ [SAVE_PARAM]: key })}`;
  else {
    const url = new URL(path, "http://localhost");
    url.searchParams.set(SAVE_PARAM, key);
    callback = url.pathname + url.search;
  }
  return `/sign-in?${new URLSearchParams({ callbackURL: callback })}`;
}

function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" class={`h-4 w-4 ${filled ? "fill-current" : "fill-none"}`}>
      <path stroke="currentColor" stroke-width="1.6" stroke-linejoin="round" d="M5 2.8h10v14.4l-5-3.6-5 3.6Z" />
    </svg>
  );
}

/**
 * When to try again, `seconds` from now, in `lang` as the browser's `Intl` writes it ("in 5 minutes", "5 मिनट में"):
 * whole minutes, rounded up, at least one (as the refusal page says it).
 */
function tryAgainIn(seconds: number, lang: Lang): string {
  return new Intl.RelativeTimeFormat(LOCALES[lang]).format(Math.max(1, Math.ceil(seconds / 60)), "minute");
}

const BUTTON = "inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1 text-sm font-medium " +
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 disabled:opacity-70";

export default function SaveButton({ kind, id, title, signedIn, words, lang }: SaveButtonProps) {
  const key: SavedKey = `${kind}:${id}`;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The sign-in link is a guest's only (made once, not on every render).
  const [href, setHref] = useState(() => signedIn ? "" : signInHref(`/${kind}/${id}`, key));
  const saved = savedKeys.value?.has(key) ?? false;
  const [saveWord, savedWord, appliedWord, notSaved, tooManySaved, gone, busyWords, tooMany, wait] = words;

  const change = async (save: boolean) => {
    setBusy(true);
    setError(null);
    const res = await fetchJson(
      `/api/me/saved/${kind}/${id}`,
      save ? { method: "PUT", body: {} } : { method: "DELETE" },
    );
    setBusy(false);
    if (res.ok) markSaved(key, save);
    else setError(failure(save, res));
  };

  // What a refused save or removal says. The button's save sends `{}`, so its one 400 is the save limit
  // (`TOO_MANY_SAVED`, the first save past it), and its one 404 a listing deleted, closed to view or hidden since the
  // page was drawn. The route's one 503 is the platform's refusal of a write lost to busy writers, and its one 429 the
  // per-person limit, said with when to try again when its `Retry-After` gives it. A failed fetch (offline), or any
  // other answer, asks to check the connection.
  const failure = (save: boolean, res: ApiFailure): string => {
    if (save && res.status === 400) return tooManySaved;
    if (save && res.status === 404) return gone;
    if (res.status === 503) return busyWords;
    if (res.status !== 429) return notSaved;
    return res.retryAfterSeconds === undefined
      ? tooMany
      : wait.replace("{when}", tryAgainIn(res.retryAfterSeconds, lang));
  };

  useEffect(() => {
    if (!signedIn) {
      setHref(signInHref(location.pathname + location.search, key));
      return;
    }
    loadSavedKeys(kind === "internships" ? id : undefined);
    const url = new URL(location.href);
    if (url.searchParams.get(SAVE_PARAM) !== key) return;
    url.searchParams.delete(SAVE_PARAM);
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    change(true);
  }, [signedIn, key]);

  if (!signedIn) {
    return (
      <a href={href} class={`${BUTTON} border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}>
        <BookmarkIcon filled={false} />
        {saveWord}
        <span class="sr-only">{` ${title}`}</span>
      </a>
    );
  }
  const applied = kind === "internships" ? appliedOn.value[id] : undefined;
  if (applied) {
    return (
      <span class="inline-flex items-center gap-1.5 rounded-md bg-green-50 px-2.5 py-1 text-sm font-medium text-green-800 ring-1 ring-inset ring-green-300">
        {appliedWord} <time datetime={applied}>{formatDate(applied, lang)}</time>
      </span>
    );
  }
  return (
    <form
      method="post"
      action="/me/tracker"
      class="inline-flex flex-col items-end gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        change(!saved);
      }}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="save" value={saved ? "0" : "1"} />
      <button
        type="submit"
        aria-pressed={saved}
        disabled={busy}
        class={`${BUTTON} ${
          saved
            ? "border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800"
            : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
        }`}
      >
        <BookmarkIcon filled={saved} />
        {saved ? savedWord : saveWord}
        <span class="sr-only">{` ${title}`}</span>
      </button>
      {error && <span role="alert" class="text-xs text-red-700">{error}</span>}
    </form>
  );
}
