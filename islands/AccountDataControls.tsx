/**
 * The profile page's data rights (docs/decisions.md, Data rights): "Download my data" (`GET /api/me/export`, a file)
 * and "Delete my account", which opens a confirmation asking for the account's e-mail address and, for an account
 * with a password, the password, then calls `DELETE /api/me` and goes to the home page, signed out.
 */
import { useState } from "preact/hooks";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, TextField } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";

/** Props: whether the account has a password (else only the e-mail confirms). */
export interface AccountDataControlsProps {
  hasPassword: boolean;
}

export default function AccountDataControls({ hasPassword }: AccountDataControlsProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>();

  const remove = async () => {
    setBusy(true);
    setError(undefined);
    const res = await fetchJson<{ success: true }>("/api/me", {
      method: "DELETE",
      body: hasPassword ? { confirm, password } : { confirm },
    });
    if (res.ok) {
      location.assign("/?accountDeleted=1");
      return;
    }
    setBusy(false);
    setError(res.error);
  };

  return (
    <div class="mt-3 flex flex-wrap gap-3">
      <a href="/api/me/export" download class={SECONDARY_BUTTON}>Download my data</a>
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => {
          setError(undefined);
          setOpen(true);
        }}
        class="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-70"
      >
        Delete my account
      </button>
      <ConfirmDialog
        open={open}
        title="Delete your account?"
        confirmLabel="Delete my account"
        busyLabel="Deleting…"
        busy={busy}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setOpen(false)}
        notice={
          <div class="space-y-3">
            <TextField
              id="delete-confirm"
              label="Your e-mail address"
              type="email"
              autocomplete="email"
              value={confirm}
              onInput={(e) => setConfirm(e.currentTarget.value)}
            />
            {hasPassword && (
              <TextField
                id="delete-password"
                label="Your password"
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
        Your account, sign-in methods, profile and progress are deleted and you are signed out. Purchases are kept for
        accounting, and what you posted stays as posted by a former member. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
