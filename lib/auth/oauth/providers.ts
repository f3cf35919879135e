/**
 * The two social identity providers (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Running;
 * docs/decisions.md, Social sign-in): Google and LinkedIn, both OpenID Connect with scopes `openid email profile`.
 * Their credentials come from `GOOGLE_*` / `LINKEDIN_*` and their endpoints from `OAUTH_<PROVIDER>_*_URL` (real
 * endpoints by default). The table is built once from the configuration by `createOAuthService`.
 *
 * A provider's issuer is fixed (it is what the provider writes into `iss` of its ID tokens and
 * authorization responses), also when its endpoints are overridden for a test provider.
 */
import type { Config, OAuthProviderConfig } from "@/app.config.ts";
import { z } from "zod";
import { AuthError } from "@/lib/errors.ts";

/** Identifiers of the supported providers, as `provider` and the callback path name them. */
export const PROVIDER_IDS = ["google", "linkedin"] as const;
export type ProviderId = typeof PROVIDER_IDS[number];
/** A provider's id as a path or a form names it. */
export const ProviderIdSchema = z.enum(PROVIDER_IDS);

/** Scopes every provider is asked for. */
export const OAUTH_SCOPES = "openid email profile";

/** Longest wait for one call to a provider (token or userinfo), in ms. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * The authorization parameters that ask a provider for a new login instead of its existing session (docs/decisions.md,
 * Social sign-in, "A fresh sign-in is a new login at the provider"): OpenID Connect's `max_age=0`, which the standard
 * makes equal to `prompt=login` and which a provider that does not know it ignores, as OAuth has servers do with unknown
 * parameters. `prompt=login` itself is not sent: Google refuses every `prompt` but `none`, `consent` and
 * `select_account`.
 */
const FRESH_LOGIN = { max_age: "0" } as const;

const FACTS: Record<ProviderId, { name: string; issuer: string; freshLogin: Readonly<Record<string, string>> }> = {
  google: { name: "Google", issuer: "https://accounts.google.com", freshLogin: FRESH_LOGIN },
  linkedin: { name: "LinkedIn", issuer: "https://www.linkedin.com/oauth", freshLogin: FRESH_LOGIN },
};

/** A provider as the flow uses it; `clientId`/`clientSecret` unset means not configured. */
export interface OAuthProvider {
  id: ProviderId;
  /** Display name, e.g. "Google". */
  name: string;
  issuer: string;
  clientId?: string;
  clientSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  /** The authorization parameters that ask this provider for a new login (a fresh sign-in). */
  freshLogin: Readonly<Record<string, string>>;
}

/** What the social sign-in flow runs with: the provider table and the timeout of each provider call. */
export interface OAuthService {
  providers: Record<ProviderId, OAuthProvider>;
  timeoutMs: number;
}

function providerOf(id: ProviderId, config: OAuthProviderConfig): OAuthProvider {
  return { id, ...FACTS[id], ...config };
}

/** The provider table of `config`, built once at start; `timeoutMs` defaults to `PROVIDER_TIMEOUT_MS`. */
export function createOAuthService(config: Config, options: { timeoutMs?: number } = {}): OAuthService {
  return {
    providers: {
      google: providerOf("google", config.oauth.google),
      linkedin: providerOf("linkedin", config.oauth.linkedin),
    },
    timeoutMs: options.timeoutMs ?? PROVIDER_TIMEOUT_MS,
  };
}

/** True when `provider` has both a client id and a client secret. */
export function isConfigured(provider: OAuthProvider): boolean {
  return Boolean(provider.clientId && provider.clientSecret);
}

/** The providers that have credentials, in table order (for the sign-in buttons). */
export function configuredProviders(service: OAuthService): OAuthProvider[] {
  return PROVIDER_IDS.map((id) => service.providers[id]).filter(isConfigured);
}

/** The configured providers as the sign-in and sign-up pages offer them: id and name only, in table order. */
export function providerChoices(service: OAuthService): Pick<OAuthProvider, "id" | "name">[] {
  return configuredProviders(service).map(({ id, name }) => ({ id, name }));
}

/**
 * The configured provider named `id`.
 * @throws AuthError 400 `PROVIDER_NOT_FOUND` "Provider not found" for an unknown name;
 *   400 `PROVIDER_NOT_CONFIGURED` "Provider not configured" for one without credentials.
 */
export function requireProvider(
  service: OAuthService,
  id: string,
): OAuthProvider & { clientId: string; clientSecret: string } {
  if (!(PROVIDER_IDS as readonly string[]).includes(id)) {
    throw new AuthError("PROVIDER_NOT_FOUND", "Provider not found");
  }
  const provider = service.providers[id as ProviderId];
  if (!provider.clientId || !provider.clientSecret) {
    throw new AuthError("PROVIDER_NOT_CONFIGURED", "Provider not configured");
  }
  return provider as OAuthProvider & { clientId: string; clientSecret: string };
}
