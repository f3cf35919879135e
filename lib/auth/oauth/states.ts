/**
 * Pending social sign-ins (docs/decisions.md, Social sign-in): the `state` of each authorization request with its
 * PKCE code verifier and redirect targets, kept 10 minutes, spent once, and bound to the browser that started it
 * by a random value in a short-lived cookie (only its SHA-256 is kept).
 *
 * Keys (owned by this module only): `["oauth_states", sha256(state)]` → `PendingSignIn`, with
 * `expireIn`; expiry is also checked on read.
 */
import { sha256Hex } from "@/lib/ids.ts";
import type { ProviderId } from "./providers.ts";

/** How long a started sign-in may take, in ms (also the binding cookie's lifetime). */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** A started sign-in as stored. */
export interface PendingSignIn {
  provider: ProviderId;
  codeVerifier: string;
  /** SHA-256 of the browser binding cookie's value. */
  bindingHash: string;
  callbackURL: string;
  newUserCallbackURL: string;
  /** The sign-in asked the provider for a new login (`OAuthProvider.freshLogin`); absent: it did not. */
  fresh?: true;
  expiresAt: string;
}

/** A started sign-in to store: its `state`, the browser `binding` cookie's value and what the record keeps. */
export interface NewPendingSignIn {
  state: string;
  binding: string;
  fields: Pick<PendingSignIn, "provider" | "codeVerifier" | "callbackURL" | "newUserCallbackURL" | "fresh">;
}

/** Stores a started sign-in under its `state` for `STATE_TTL_MS`. */
export async function savePendingSignIn(kv: Deno.Kv, { state, binding, fields }: NewPendingSignIn): Promise<void> {
  const record: PendingSignIn = {
    ...fields,
    bindingHash: await sha256Hex(binding),
    expiresAt: new Date(Date.now() + STATE_TTL_MS).toISOString(),
  };
  await kv.set(["oauth_states", await sha256Hex(state)], record, { expireIn: STATE_TTL_MS });
}

/**
 * Spends the sign-in of `state` when `binding` (the browser's cookie value) is the one it was
 * started with; a wrong browser leaves it unspent. One atomic check-and-delete, so two
 * callbacks with one state cannot both pass.
 * @returns the record, or null for an unknown, spent, expired or foreign state.
 */
export async function consumePendingSignIn(
  kv: Deno.Kv,
  state: string,
  binding: string | undefined,
): Promise<PendingSignIn | null> {
  if (!state || !binding) return null;
  const key = ["oauth_states", await sha256Hex(state)];
  const entry = await kv.get<PendingSignIn>(key);
  const record = entry.value;
  if (!record || Date.parse(record.expiresAt) <= Date.now()) return null;
  if (record.bindingHash !== await sha256Hex(binding)) return null;
  const result = await kv.atomic().check(entry).delete(key).commit();
  return result.ok ? record : null;
}
