/**
 * A fake OpenID Connect provider over real HTTP on 127.0.0.1, for the social sign-in tests
 * (docs/decisions.md, Auth). It speaks the authorization-code flow as Google and LinkedIn do:
 *
 * - `GET /authorize` checks the client id, `response_type=code`, the scopes `openid email profile`,
 *   `state` and a PKCE S256 `code_challenge`, then "consents" at once: 302 to `redirect_uri` with
 *   `code`, `state` and `iss` (or `error=access_denied` when `deny` is set). A browser still logged in at the provider
 *   (`loggedInAt`) is not asked to log in again unless the request says `prompt=login` or a `max_age` its login is
 *   past; a new login sets `loggedInAt` to now.
 * - `POST /token` accepts only `client_secret_post` (client id and secret in the form body; an
 *   `Authorization` header or missing credentials get 401 `invalid_client`), spends the code once,
 *   checks `redirect_uri` and the PKCE `code_verifier`, and answers an access token and an RS256
 *   ID token.
 * - `GET /userinfo` answers the identity's claims for the access token.
 *
 * `mode` simulates outages: `"down"` answers 503 on the token and userinfo endpoints, `"hang"`
 * never answers them (until `close`).
 */
import { Buffer } from "node:buffer";

function encodeBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  return Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString("base64url");
}

/** The identity the provider signs in as (OpenID Connect standard claims). */
export interface FakeIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/** One request the token endpoint received. */
export interface TokenRequest {
  authorization: string | null;
  body: Record<string, string>;
}

/** A running fake provider. */
export interface FakeOidcProvider extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization signs in as. */
  identity: FakeIdentity;
  /** The next authorization is refused by the user (`error=access_denied`). */
  deny: boolean;
  mode: "up" | "down" | "hang";
  /** Every token request, for checks of the client authentication. */
  tokenRequests: TokenRequest[];
  /**
   * When the browser last logged in at the provider (seconds since the epoch), or null when it is not logged in there
   * (every authorization is then a new login).
   */
  loggedInAt: number | null;
  /** Whether ID tokens carry `auth_time` (the time of that login). */
  sendsAuthTime: boolean;
  /** The query of every authorization request, for checks of what the app asked for. */
  authorizations: URLSearchParams[];
  /** The environment that points the platform's `<PROVIDER>` at this fake. */
  env(provider: "GOOGLE" | "LINKEDIN"): Record<string, string>;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  identity: FakeIdentity;
  /** When the person logged in for this authorization (seconds since the epoch). */
  authTime: number;
}

async function s256(verifier: string): Promise<string> {
  return encodeBase64Url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

/**
 * The RS256 key pair the fake providers of a test module sign their ID tokens with, made by the first one started.
 * An RSA-2048 pair costs Deno about 0.2 s of CPU or more to make, and the social sign-in tests start two providers a
 * test; no provider publishes its keys (the app takes the ID token from the token endpoint and does not check its
 * signature), so one pair serves them all.
 */
let signingKeys: Promise<CryptoKeyPair> | undefined;

/** Starts a fake provider that writes `issuer` into its ID tokens and authorization responses. */
export async function startFakeOidcProvider(
  options: { issuer: string; clientId?: string; clientSecret?: string },
): Promise<FakeOidcProvider> {
  signingKeys ??= crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  const keys = await signingKeys;
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, FakeIdentity>();
  const closing = new AbortController();

  const signIdToken = async (claims: Record<string, unknown>): Promise<string> => {
    const encode = (value: unknown) => encodeBase64Url(new TextEncoder().encode(JSON.stringify(value)));
    const input = `${encode({ alg: "RS256", typ: "JWT", kid: "fake" })}.${encode(claims)}`;
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keys.privateKey, new TextEncoder().encode(input));
    return `${input}.${encodeBase64Url(signature)}`;
  };

  const outage = async (): Promise<Response | undefined> => {
    if (fake.mode === "down") return json({ error: "temporarily_unavailable" }, 503);
    if (fake.mode === "hang") {
      await new Promise((resolve) => closing.signal.addEventListener("abort", resolve, { once: true }));
      return new Response(null, { status: 503 });
    }
  };

  const authorize = (url: URL): Response => {
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri");
    const scopes = new Set((q.get("scope") ?? "").split(" "));
    const problems = [
      q.get("client_id") !== fake.clientId && "unknown client_id",
      !redirectUri && "redirect_uri missing",
      q.get("response_type") !== "code" && "response_type must be code",
      !["openid", "email", "profile"].every((s) => scopes.has(s)) && "scope must include openid email profile",
      !q.get("state") && "state missing",
      q.get("code_challenge_method") !== "S256" && "code_challenge_method must be S256",
      !/^[A-Za-z0-9_-]{43}$/.test(q.get("code_challenge") ?? "") && "code_challenge missing",
    ].filter(Boolean);
    if (problems.length > 0) return new Response(`Bad authorization request: ${problems.join(", ")}`, { status: 400 });
    fake.authorizations.push(new URLSearchParams(q));
    const now = Math.floor(Date.now() / 1000);
    const maxAge = q.get("max_age");
    const logIn = fake.loggedInAt === null || (q.get("prompt") ?? "").split(" ").includes("login") ||
      (maxAge !== null && now - fake.loggedInAt >= Number(maxAge));
    if (logIn) fake.loggedInAt = now;
    const back = new URL(redirectUri!);
    back.searchParams.set("state", q.get("state")!);
    if (fake.deny) {
      back.searchParams.set("error", "access_denied");
      return Response.redirect(back, 302);
    }
    const code = crypto.randomUUID();
    grants.set(code, {
      clientId: fake.clientId,
      redirectUri: redirectUri!,
      challenge: q.get("code_challenge")!,
      identity: { ...fake.identity },
      authTime: fake.loggedInAt!,
    });
    back.searchParams.set("code", code);
    back.searchParams.set("iss", fake.issuer);
    return Response.redirect(back, 302);
  };

  const token = async (req: Request): Promise<Response> => {
    const body = Object.fromEntries(new URLSearchParams(await req.text()));
    const authorization = req.headers.get("authorization");
    fake.tokenRequests.push({ authorization, body });
    const down = await outage();
    if (down) return down;
    if (authorization !== null || body.client_id !== fake.clientId || body.client_secret !== fake.clientSecret) {
      return json({ error: "invalid_client", error_description: "client_secret_post expected" }, 401);
    }
    if (body.grant_type !== "authorization_code") return json({ error: "unsupported_grant_type" }, 400);
    const grant = grants.get(body.code ?? "");
    grants.delete(body.code ?? "");
    if (!grant || grant.redirectUri !== body.redirect_uri) return json({ error: "invalid_grant" }, 400);
    if (!body.code_verifier || await s256(body.code_verifier) !== grant.challenge) {
      return json({ error: "invalid_grant", error_description: "PKCE verification failed" }, 400);
    }
    const accessToken = crypto.randomUUID();
    accessTokens.set(accessToken, grant.identity);
    const now = Math.floor(Date.now() / 1000);
    const idToken = await signIdToken({
      iss: fake.issuer,
      aud: grant.clientId,
      sub: grant.identity.sub,
      iat: now,
      exp: now + 3600,
      email: grant.identity.email,
      email_verified: grant.identity.email_verified,
      ...(fake.sendsAuthTime ? { auth_time: grant.authTime } : {}),
    });
    return json({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3599,
      scope: "openid email profile",
      id_token: idToken,
    });
  };

  const userinfo = async (req: Request): Promise<Response> => {
    const down = await outage();
    if (down) return down;
    const identity = accessTokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    if (!identity) {
      return json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' });
    }
    return json(identity);
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/authorize") return authorize(url);
    if (req.method === "POST" && url.pathname === "/token") return token(req);
    if (req.method === "GET" && url.pathname === "/userinfo") return userinfo(req);
    return new Response("Not found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  const fake: FakeOidcProvider = {
    url: base,
    issuer: options.issuer,
    clientId: options.clientId ?? "fake-client-id",
    clientSecret: options.clientSecret ?? "fake-client-secret",
    identity: { sub: "1", email: "user@example.com", email_verified: true, name: "Fake User" },
    deny: false,
    mode: "up",
    tokenRequests: [],
    loggedInAt: null,
    sendsAuthTime: true,
    authorizations: [],
    env(provider) {
      return {
        [`${provider}_CLIENT_ID`]: fake.clientId,
        [`${provider}_CLIENT_SECRET`]: fake.clientSecret,
        [`OAUTH_${provider}_AUTHORIZATION_URL`]: `${base}/authorize`,
        [`OAUTH_${provider}_TOKEN_URL`]: `${base}/token`,
        [`OAUTH_${provider}_USERINFO_URL`]: `${base}/userinfo`,
      };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  return fake;
}
