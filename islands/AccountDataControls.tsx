/**
 * The profile page's data rights (docs/decisions.md, Data rights): "Download my data" (`GET /api/me/export`, a file)
 * and "Delete my account", which opens a confirmation asking for the account's e-mail address and, for an account
 * with a password, the password, then calls `DELETE /api/me` and goes to the home page, signed out. Before the script
 * runs (or without it) the button is a plain form that leads to `/profile/delete`, the same confirmation as a page
 * (docs/decisions.md, Islands, "Forms work without JavaScript"); so it stays when the account must sign in again first
 * (no password and no fresh sign-in; docs/decisions.md, Data rights), as that page offers the sign-in. A deletion
 * that succeeded marks that form as being sent (`aria-busy`, `data-discards-typed`), so leaving for the home page does
 * not ask about a profile change not saved: the profile is gone (docs/decisions.md, Islands, "Leaving a typed form").
 */
import { useRef, useState } from "preact/hooks";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice, TextField } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";

/** The messages this island uses (its `text`). */
export const ACCOUNT_DATA_TEXT = [
  "profile.delete.",
  "common.cancel",
  "common.errors.",
  ...refusalPrefixes("lastAdmin", "confirmEmail", "wrongPassword", "signInAgain", "choosePasswordToDelete"),
] as const;

/**
 * Props: whether the account has a password (else only the e-mail confirms), whether it must sign in again before
 * deleting (the button then leads to `/profile/delete`), and the island's messages.
 */
export interface AccountDataControlsProps {
  hasPassword: boolean;
  signInFirst: boolean;
  text: IslandText;
}

export default function AccountDataControls({ hasPassword, signInFirst, text }: AccountDataControlsProps) {
  const t = translatorOf(text);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);

  const remove = async () => {
    setBusy(true);
    setError(undefined);
    const res = await fetchJson<{ success: true }>("/api/me", {
      method: "DELETE",
      body: hasPassword ? { confirm, password } : { confirm },
    });
    if (res.ok) {
      form.current?.setAttribute("aria-busy", "true");
      location.assign("/?accountDeleted=1");
      return;
    }
    setBusy(false);
    setError(failureMessage(t, res));
  };

  return (
    <IslandTextProvider text={text}>
      <div class="mt-3 flex flex-wrap gap-3">
        <a href="/api/me/export" download class={SECONDARY_BUTTON}>{t("profile.delete.download")}</a>
        <form
          ref={form}
          method="get"
          action="/profile/delete"
          data-discards-typed
          onSubmit={(event) => {
            if (signInFirst) return;
            event.preventDefault();
            setError(undefined);
            setOpen(true);
          }}
        >
          <button
            type="submit"
            class="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
          >
            {t("profile.delete.button")}
          </button>
        </form>
        <ConfirmDialog
          open={open}
          title={t("profile.delete.title")}
          confirmLabel={t("profile.delete.button")}
          busyLabel={t("profile.delete.deleting")}
          busy={busy}
          tone="danger"
          onConfirm={remove}
          onCancel={() => setOpen(false)}
          notice={
            <div class="space-y-3">
              <TextField
                id="delete-confirm"
                label={t("profile.delete.email")}
                type="email"
                autocomplete="email"
                value={confirm}
                onInput={(e) => setConfirm(e.currentTarget.value)}
              />
              {hasPassword && (
                <TextField
                  id="delete-password"
                  label={t("profile.delete.password")}
                  type="password"
                  autocomplete="current-password"
                  value={password}
                  onInput={(e) => setPassword(e.currentTarget.value)}
                />
              )}
              {error && <Notice kind="error">{error}</Notice>}
            </div>
          }
        >
          {t("profile.delete.body")}
        </ConfirmDialog>
      </div>
    </IslandTextProvider>
  );
}
