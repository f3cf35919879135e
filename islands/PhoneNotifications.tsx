/**
 * "Notifications on this phone" on the profile page (docs/decisions.md, Push, "Subscriptions"): subscribes this
 * browser to push notifications with the platform's VAPID key (`POST /api/me/push-subscriptions`) or unsubscribes it
 * (`DELETE`), once the person asks (the browser then asks for permission). A subscription the browser holds is sent
 * again on load, so it is stamped with the live session. Rendered only when push is configured; says so where the
 * browser has no push or the person blocked notifications.
 */
import { useEffect, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const PHONE_NOTIFICATIONS_TEXT = [
  "profile.phone.",
  "common.errors.",
  ...refusalPrefixes("pushOff", "pushTooMany", "pushHostRefused", "pushBadKeys"),
] as const;

/** Props: the VAPID public key (base64url) a subscription is made for, and the messages (`PHONE_NOTIFICATIONS_TEXT`). */
export interface PhoneNotificationsProps {
  publicKey: string;
  text: IslandText;
}

type State = "checking" | "unsupported" | "blocked" | "off" | "on" | "working";

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export default function PhoneNotifications({ publicKey, text }: PhoneNotificationsProps) {
  const t = translatorOf(text);
  const [state, setState] = useState<State>("checking");
  const [message, setMessage] = useState("");

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in globalThis)) return setState("unsupported");
    if (Notification.permission === "denied") return setState("blocked");
    navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then(async (subscription) => {
        if (!subscription) return setState("off");
        // Sent again, so the server stamps it with this session (one made before a reset or a sign-out was dropped).
        const res = await fetchJson("/api/me/push-subscriptions", { body: subscription.toJSON() });
        setState(res.ok ? "on" : "off");
        if (!res.ok) setMessage(t("profile.phone.notOn", { reason: failureMessage(t, res) }));
      })
      .catch(() => setState("unsupported"));
  }, []);

  const turnOn = async () => {
    setState("working");
    setMessage("");
    try {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      const res = await fetchJson("/api/me/push-subscriptions", { body: subscription.toJSON() });
      if (!res.ok) {
        await subscription.unsubscribe();
        setState("off");
        setMessage(t("profile.phone.notOn", { reason: failureMessage(t, res) }));
        return;
      }
      setState("on");
      setMessage(t("profile.phone.on"));
    } catch {
      setState(Notification.permission === "denied" ? "blocked" : "off");
      setMessage(t("profile.phone.denied"));
    }
  };

  const turnOff = async () => {
    setState("working");
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      await fetchJson("/api/me/push-subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } });
      await subscription.unsubscribe();
    }
    setState("off");
    setMessage(t("profile.phone.off"));
  };

  const button = "rounded-md px-4 py-2 font-medium disabled:opacity-60";
  return (
    <div class="mt-2 space-y-2 text-sm text-slate-700">
      {state === "unsupported" && <p>{t("profile.phone.unsupported")}</p>}
      {state === "blocked" && <p>{t("profile.phone.blocked")}</p>}
      {(state === "off" || state === "checking" || (state === "working" && !message)) && (
        <button
          type="button"
          onClick={turnOn}
          disabled={state !== "off"}
          class={`${button} bg-indigo-700 text-white hover:bg-indigo-800`}
        >
          {t("profile.phone.turnOn")}
        </button>
      )}
      {state === "on" && (
        <button
          type="button"
          onClick={turnOff}
          class={`${button} border border-slate-300 text-slate-900 hover:bg-slate-100`}
        >
          {t("profile.phone.turnOff")}
        </button>
      )}
      <p role="status">{message}</p>
    </div>
  );
}
