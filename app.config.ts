/**
 * Typed configuration read from the environment (docs/decisions.md, Running), validated with zod.
 * `loadConfig()` throws a `ConfigError` listing every bad variable.
 */
import { z } from "zod";
import { indianState, stateOfCode } from "@/lib/purchases/indian_states.ts";
import { HEADER_TIMEOUT_MS } from "@/lib/platform/header_gate.ts";

/** A GSTIN: state code, PAN, entity number, `Z`, check character. */
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const optionalText = z.string().trim().min(1).optional().catch(undefined);
/** A `PUSH_HOSTS` entry: a host name or IP address, `*.`-prefixed or not, with a port or not. */
const PUSH_HOST = /^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:]+\](:\d{1,5})?$/;
/** The push services of Chrome, Firefox, Edge and Safari. */
const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.notify.windows.com",
  "web.push.apple.com",
];

/** Base64url text of exactly `bytes` bytes. */
function base64UrlBytes(bytes: number, message: string) {
  return z.string().trim().refine((text) => {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) return false;
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return binary.length === bytes && (bytes !== 65 || binary.charCodeAt(0) === 4);
  }, message);
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HEADER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(HEADER_TIMEOUT_MS),
  // `BODY_IDLE_MS` of lib/http/limits.ts (tests/api/request_guards_test.ts holds them equal).
  BODY_IDLE_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  HOST: z.string().min(1).optional(),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  KV_PATH: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ADMIN_EMAILS: z.string().default(""),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default("Career Platform <no-reply@localhost>"),
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  RAZORPAY_API_URL: z.url().default("https://api.razorpay.com"),
  // Razorpay's Checkout.js (`CHECKOUT_SCRIPT` of islands/ToolkitCheckout.tsx); the local demo serves a stand-in.
  RAZORPAY_CHECKOUT_URL: z.url({ protocol: /^https?$/ }).default("https://checkout.razorpay.com/v1/checkout.js"),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  LINKEDIN_CLIENT_ID: optionalText,
  LINKEDIN_CLIENT_SECRET: optionalText,
  OAUTH_GOOGLE_AUTHORIZATION_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  OAUTH_GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  OAUTH_GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
  OAUTH_LINKEDIN_AUTHORIZATION_URL: z.url().default("https://www.linkedin.com/oauth/v2/authorization"),
  OAUTH_LINKEDIN_TOKEN_URL: z.url().default("https://www.linkedin.com/oauth/v2/accessToken"),
  OAUTH_LINKEDIN_USERINFO_URL: z.url().default("https://api.linkedin.com/v2/userinfo"),
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  // How many reverse proxies in front append to `X-Forwarded-For`: `true` is one (docs/decisions.md, Running).
  TRUST_PROXY: z.string().trim()
    .regex(/^(true|false|[1-9]|10)$/, "must be true, false or the number of proxies in front (1-10)")
    .transform((text) => text === "true" ? 1 : text === "false" ? 0 : Number(text))
    .default(0),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  GRIEVANCE_EMAIL: z.email().optional(),
  JOBS: z.enum(["on", "off"]).default("on"),
  OUTBOX_RETRY_MS: z.string().trim()
    .regex(/^\d+(\s*,\s*\d+)*$/, "must be comma-separated whole milliseconds, e.g. 60000,300000")
    .transform((text) => text.split(",").map((part) => Number(part.trim())))
    .pipe(z.array(z.number().int().max(7 * 24 * 3600 * 1000, "each wait must be at most 7 days")).max(20))
    .default([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]),
  SELLER_NAME: z.string().trim().min(1).max(200).optional(),
  SELLER_ADDRESS: z.string().trim().min(1).max(500).optional(),
  SELLER_STATE: z.string().trim().min(1).max(100)
    .refine((text) => indianState(text) !== null, "must name an Indian state or union territory, e.g. Karnataka")
    .transform((text) => indianState(text)!.name)
    .optional(),
  SELLER_GSTIN: z.string().trim().toUpperCase().regex(GSTIN, "must be a 15-character GSTIN").optional(),
  SELLER_SAC: z.string().regex(/^\d{6}$/, "must be a 6-digit SAC code").default("999293"),
  VAPID_PUBLIC_KEY: base64UrlBytes(65, "must be a base64url P-256 public key (65 bytes)").optional(),
  VAPID_PRIVATE_KEY: base64UrlBytes(32, "must be a base64url P-256 private key (32 bytes)").optional(),
  VAPID_SUBJECT: z.string().trim().regex(/^(mailto:.+@.+|https:\/\/.+)$/, "must be a mailto: or https: URL").optional(),
  PUSH_HOSTS: z.string().trim()
    .transform((text) => text.split(",").map((part) => part.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(PUSH_HOST, "each must be a host or host:port, optionally *.-prefixed")).min(1))
    .default(DEFAULT_PUSH_HOSTS),
});

/** An OAuth provider's credentials and endpoints; `clientId` unset means not configured. */
export interface OAuthProviderConfig {
  clientId?: string;
  clientSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

/** The platform's configuration. */
export interface Config {
  port: number;
  host: string;
  /**
   * How long (ms) a connection to a self-hosted server may take to send its request headers (docs/decisions.md, Errors
   * and limits, "Header deadline"); 30 s unless `HEADER_TIMEOUT_MS` says otherwise (tests shorten it).
   */
  headerTimeoutMs: number;
  /**
   * How long (ms) a request body may send nothing before its read fails with 408 (docs/decisions.md, Running); 15 s
   * unless `BODY_IDLE_MS` says otherwise (tests shorten it).
   */
  bodyIdleMs: number;
  /** Public origin without trailing slash, e.g. `http://localhost:8000`. */
  appUrl: string;
  secure: boolean;
  /** A file path, `:memory:`, a KV Connect URL, or undefined for the platform's KV on Deno Deploy. */
  kvPath: string | undefined;
  authSecret?: string;
  adminEmails: Set<string>;
  smtpUrl?: string;
  mailFrom: string;
  razorpay: { keyId?: string; keySecret?: string; webhookSecret?: string; apiUrl: string; checkoutUrl: string };
  oauth: { google: OAuthProviderConfig; linkedin: OAuthProviderConfig };
  rateLimits: boolean;
  /**
   * How many reverse proxies in front append the peer they saw to `X-Forwarded-For` (`TRUST_PROXY`); 0: none, the
   * client's address is the connection's peer.
   */
  proxyHops: number;
  logLevel: "debug" | "info" | "warn" | "error";
  /** The grievance contact shown on `/privacy` and in every page's footer (docs/decisions.md, Data rights). */
  grievanceEmail?: string;
  /** False (`JOBS=off`): scheduled jobs skip their work; a run by hand still runs (docs/decisions.md, Background work). */
  jobs: boolean;
  /** Waits in ms after each failed e-mail delivery; after the last, the mail is kept as failed. */
  outboxRetryMs: number[];
  /**
   * The seller named on receipts (docs/decisions.md, Money operations, "Receipts"): with `gstin` set a receipt is a
   * tax invoice with SAC code `sac`, and `state` decides CGST + SGST or IGST.
   */
  seller: { name?: string; address?: string; state?: string; gstin?: string; sac: string };
  /**
   * Web Push (docs/decisions.md, Push): the VAPID keys and contact (null without them: push is off), and the hosts a
   * subscription's endpoint may name (`PUSH_HOSTS`, lower case; `*.` prefix, optional port).
   */
  push: { vapid: { publicKey: string; privateKey: string; subject: string } | null; hosts: string[] };
}

/** Thrown when an environment variable has a bad value; the message lists each one. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads the configuration from `env` (default: the process environment).
 * @throws ConfigError naming every invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const gstinState = e.SELLER_GSTIN ? stateOfCode(e.SELLER_GSTIN.slice(0, 2)) : null;
  if (e.SELLER_GSTIN && (!gstinState || (e.SELLER_STATE && gstinState.name !== e.SELLER_STATE))) {
    throw new ConfigError(
      "Invalid configuration:\n  SELLER_GSTIN: its first two digits must be the GST state code of SELLER_STATE",
    );
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const secure = appUrl.startsWith("https:");
  if (secure && !e.AUTH_SECRET) {
    throw new ConfigError("Invalid configuration:\n  AUTH_SECRET: required when APP_URL is https");
  }
  const vapidSet = [e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY, e.VAPID_SUBJECT].filter((v) => v !== undefined).length;
  if (vapidSet !== 0 && vapidSet !== 3) {
    throw new ConfigError(
      "Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: set all three, or none for no push",
    );
  }
  const onDeploy = Boolean(Deno.env.get("DENO_DEPLOYMENT_ID"));
  const provider = (name: "GOOGLE" | "LINKEDIN"): OAuthProviderConfig => ({
    clientId: e[`${name}_CLIENT_ID`],
    clientSecret: e[`${name}_CLIENT_SECRET`],
    authorizationUrl: e[`OAUTH_${name}_AUTHORIZATION_URL`],
    tokenUrl: e[`OAUTH_${name}_TOKEN_URL`],
    userinfoUrl: e[`OAUTH_${name}_USERINFO_URL`],
  });
  return {
    port: e.PORT,
    headerTimeoutMs: e.HEADER_TIMEOUT_MS,
    bodyIdleMs: e.BODY_IDLE_MS,
    host: e.HOST ?? (secure ? "0.0.0.0" : "127.0.0.1"),
    appUrl,
    secure,
    kvPath: e.KV_PATH ?? (onDeploy ? undefined : "./data/kv.sqlite3"),
    authSecret: e.AUTH_SECRET,
    adminEmails: new Set(e.ADMIN_EMAILS.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    razorpay: {
      keyId: e.RAZORPAY_KEY_ID,
      keySecret: e.RAZORPAY_KEY_SECRET,
      webhookSecret: e.RAZORPAY_WEBHOOK_SECRET,
      apiUrl: e.RAZORPAY_API_URL.replace(/\/+$/, ""),
      checkoutUrl: e.RAZORPAY_CHECKOUT_URL,
    },
    oauth: { google: provider("GOOGLE"), linkedin: provider("LINKEDIN") },
    rateLimits: e.RATE_LIMITS === "on",
    proxyHops: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    grievanceEmail: e.GRIEVANCE_EMAIL,
    jobs: e.JOBS === "on",
    outboxRetryMs: e.OUTBOX_RETRY_MS,
    seller: {
      name: e.SELLER_NAME,
      address: e.SELLER_ADDRESS,
      state: e.SELLER_STATE,
      gstin: e.SELLER_GSTIN,
      sac: e.SELLER_SAC,
    },
    push: {
      vapid: vapidSet === 3
        ? { publicKey: e.VAPID_PUBLIC_KEY!, privateKey: e.VAPID_PRIVATE_KEY!, subject: e.VAPID_SUBJECT! }
        : null,
      hosts: e.PUSH_HOSTS,
    },
  };
}
