/**
 * The OAuth 2.0 authorization-code flow with PKCE (S256) and `state` (docs/api.md, Authentication, "Social sign-in";
 * docs/decisions.md, Social sign-in), through `oauth4webapi`: the authorization URL, then at the callback the state
 * check, the token exchange with the client credentials in the request body (`client_secret_post`) and the identity
 * from the userinfo endpoint. Every call to a provider is cut off after `OAuthService.timeoutMs`.
 *
 * Failures are `AuthError`s whose code the callback carries to `/sign-in?error=<code>`:
 * `INVALID_STATE` (missing, unknown, spent, expired, or from another browser), `ACCESS_DENIED`
 * (consent refused), `OAUTH_FAILED` (an error answer of the provider, a refused code exchange,
 * a malformed answer), `PROVIDER_UNAVAILABLE` (unreachable, timed out, 5xx), `EMAIL_NOT_FOUND`
 * (no e-mail in the identity). The underlying error is kept as `cause`.
 */
import * as oauth from "oauth4webapi";
import { z } from "zod";
import { AuthError, type AuthErrorCode } from "@/lib/errors.ts";
import { OAUTH_SCOPES, type OAuthProvider, type OAuthService, requireProvider } from "./providers.ts";
import { consumePendingSignIn, type PendingSignIn, savePendingSignIn } from "./states.ts";

/** The identity a provider vouches for (OpenID Connect standard claims of its userinfo endpoint). */
export interface ProviderIdentity {
  provider: OAuthProvider["id"];
  /** The provider's stable account id (`sub`). */
  accountId: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
  /**
   * When the person last logged in at the provider (the ID token's `auth_time`, as an ISO time), when the provider
   * sent it: a browser still signed in there may sign in here without a new login.
   */
  authenticatedAt?: string;
}

/** Redirect targets of a sign-in, already checked against open redirects. */
export interface SignInTargets {
  callbackURL: string;
  newUserCallbackURL: string;
}

function failure(code: AuthErrorCode, message: string, cause?: unknown): AuthError {
  const error = new AuthError(code, message);
  if (cause !== undefined) error.cause = cause;
  return error;
}

function serverOf(provider: OAuthProvider): oauth.AuthorizationServer {
  return {
    issuer: provider.issuer,
    authorization_endpoint: provider.authorizationUrl,
    token_endpoint: provider.tokenUrl,
    userinfo_endpoint: provider.userinfoUrl,
  };
}

/** The callback URL registered with the providers: `{APP_URL}/api/auth/callback/{provider}`. */
export function redirectUriOf(appUrl: string, provider: OAuthProvider["id"]): string {
  return `${appUrl}/api/auth/callback/${provider}`;
}

/**
 * What starts a sign-in: the configured providers, the provider's id, where to go after, the
 * browser binding cookie's value, the app's origin (`APP_URL`), and whether to ask the provider for a new login
 * (`fresh`: a fresh sign-in, as deleting an account without a password needs).
 */
export interface SignInStart {
  service: OAuthService;
  providerId: string;
  targets: SignInTargets;
  binding: string;
  appUrl: string;
  fresh?: boolean;
}

/**
 * Starts a sign-in: stores state, code verifier and targets (10 minutes, bound to `binding`,
 * the browser cookie's value) and returns the provider's authorization URL, which for a `fresh` sign-in carries the
 * provider's `freshLogin` parameters.
 * @throws AuthError `PROVIDER_NOT_FOUND` / `PROVIDER_NOT_CONFIGURED`.
 */
export async function startSignIn(
  kv: Deno.Kv,
  { service, providerId, targets, binding, appUrl, fresh = false }: SignInStart,
): Promise<URL> {
  const provider = requireProvider(service, providerId);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  await savePendingSignIn(kv, {
    state,
    binding,
    fields: { provider: provider.id, codeVerifier, ...targets, ...(fresh ? { fresh: true as const } : {}) },
  });
  const url = new URL(provider.authorizationUrl);
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", redirectUriOf(appUrl, provider.id));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", OAUTH_SCOPES);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (fresh) { for (const [name, value] of Object.entries(provider.freshLogin)) url.searchParams.set(name, value); }
  return url;
}

const UserInfo = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().trim().max(254).pipe(z.email()).optional().catch(undefined),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional()
    .catch(undefined),
  name: z.string().optional().catch(undefined),
  picture: z.url({ protocol: /^https?$/ }).max(2048).optional().catch(undefined),
});

/** `authenticatedAt` of an ID token's `auth_time` (seconds since the epoch), when it is a plausible one. */
function authenticatedAtOf(authTime: unknown): Pick<ProviderIdentity, "authenticatedAt"> {
  if (typeof authTime !== "number" || !Number.isFinite(authTime) || authTime <= 0) return {};
  const at = new Date(authTime * 1000);
  return Number.isNaN(at.getTime()) ? {} : { authenticatedAt: at.toISOString() };
}

function classify(error: unknown, step: string): AuthError {
  if (error instanceof AuthError) return error;
  // fetch rejects with a TypeError when the connection fails; oauth4webapi's own argument
  // errors are TypeErrors too, but carry a `code`.
  const unavailable =
    (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) ||
    (error instanceof TypeError && !("code" in error)) ||
    (error instanceof oauth.OperationProcessingError && error.cause instanceof Response && error.cause.status >= 500);
  if (unavailable) return failure("PROVIDER_UNAVAILABLE", `The provider could not be reached (${step})`, error);
  return failure("OAUTH_FAILED", `The provider refused the sign-in (${step})`, error);
}

/**
 * Finishes a sign-in at the callback: spends the state (it must belong to this provider and
 * browser), exchanges the code with the PKCE verifier and reads the identity.
 * @param params the callback's query parameters.
 * @param binding the browser binding cookie's value, if any.
 * @returns the identity and the redirect targets stored at the start.
 * @throws AuthError as listed in the module doc, and `PROVIDER_NOT_FOUND` / `PROVIDER_NOT_CONFIGURED`.
 */
export async function finishSignIn(
  kv: Deno.Kv,
  { service, providerId, params, binding, appUrl }: Omit<SignInStart, "targets" | "binding"> & {
    params: URLSearchParams;
    binding: string | undefined;
  },
): Promise<{ identity: ProviderIdentity; targets: SignInTargets }> {
  const provider = requireProvider(service, providerId);
  const state = params.get("state") ?? "";
  const pending: PendingSignIn | null = await consumePendingSignIn(kv, state, binding);
  if (!pending || pending.provider !== provider.id) {
    throw failure("INVALID_STATE", "The sign-in link is invalid, expired or was opened in another browser");
  }
  const targets = { callbackURL: pending.callbackURL, newUserCallbackURL: pending.newUserCallbackURL };
  const denied = params.get("error");
  if (denied === "access_denied") throw failure("ACCESS_DENIED", "Access was denied at the provider");
  if (denied) throw failure("OAUTH_FAILED", "The provider answered with an error", denied);

  const as = serverOf(provider);
  const client: oauth.Client = { client_id: provider.clientId };
  const options = {
    signal: () => AbortSignal.timeout(service.timeoutMs),
    [oauth.allowInsecureRequests]: new URL(provider.tokenUrl).protocol === "http:" ||
      new URL(provider.userinfoUrl).protocol === "http:",
  };

  let tokens: oauth.TokenEndpointResponse;
  try {
    const callback = oauth.validateAuthResponse(as, client, params, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(provider.clientSecret),
      callback,
      redirectUriOf(appUrl, provider.id),
      pending.codeVerifier,
      options,
    );
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw classify(error, "token exchange");
  }

  const idToken = oauth.getValidatedIdTokenClaims(tokens);
  let claims: oauth.UserInfoResponse;
  try {
    const subject = idToken?.sub ?? oauth.skipSubjectCheck;
    const response = await oauth.userInfoRequest(as, client, tokens.access_token, options);
    claims = await oauth.processUserInfoResponse(as, client, subject, response);
  } catch (error) {
    throw classify(error, "userinfo");
  }
  const info = UserInfo.safeParse(claims);
  if (!info.success) throw failure("OAUTH_FAILED", "The provider's identity is malformed", info.error);
  if (!info.data.email) throw failure("EMAIL_NOT_FOUND", "The provider did not share an e-mail address");
  return {
    targets,
    identity: {
      provider: provider.id,
      accountId: info.data.sub,
      email: info.data.email,
      emailVerified: info.data.email_verified ?? false,
      name: info.data.name?.trim() || null,
      picture: info.data.picture ?? null,
      ...authenticatedAtOf(idToken?.auth_time),
    },
  };
}
