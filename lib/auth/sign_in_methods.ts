/**
 * The ways a user can sign in (docs/api.md, Authentication): e-mail and password when the user has a
 * password, and each linked social provider (docs/decisions.md, Auth). Shown on the profile page.
 */
import { getPasswordHash } from "@/lib/users/users.ts";
import { linkedProviders } from "./oauth/accounts.ts";
import type { ProviderId } from "./oauth/providers.ts";

/** A sign-in method: `email` (e-mail and password) or a provider id. */
export type SignInMethod = "email" | ProviderId;

/** The user's sign-in methods, e-mail and password first, then the providers in key order. */
export async function signInMethods(kv: Deno.Kv, userId: string): Promise<SignInMethod[]> {
  const [password, providers] = await Promise.all([getPasswordHash(kv, userId), linkedProviders(kv, userId)]);
  return [...(password ? ["email" as const] : []), ...providers];
}
