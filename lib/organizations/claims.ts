/**
 * Verification by the organization's own domain (docs/decisions.md, Trust, "Verification by domain"): a signed-in
 * person with a verified e-mail gives an address at the organization's website host (exactly, "www." dropped); a
 * one-time link goes there through the outbox, and that person, signed in, opening it and pressing "Verify" within 24
 * hours verifies the organization and makes them a manager. Only the first manager comes this way: a claim of an
 * organization that already has a manager is refused (a mailbox at the domain proves employment, not the
 * organization's consent).
 *
 * Keys (owned by this module only):
 * - `["organization_claims", tokenHash]` → `Claim`, kept 7 days (so a used or expired link can say so); the token
 *   itself lives only in the link;
 * - `["organization_claims_by_user", userId, tokenHash]` → true, the same 7 days (account deletion).
 */
import { z } from "zod";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, VERIFY_FIRST } from "@/lib/errors.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { organizationClaimMail } from "@/lib/mail/templates.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { User } from "@/lib/users/users.ts";
import { isFreeMail } from "./free_mail.ts";
import { type Organization, websiteHost } from "./schema.ts";
import {
  addManagerOps,
  getOrganization,
  hasManagerOtherThan,
  organizationBySlug,
  replaceOrganization,
  touchOrganization,
} from "./store.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** How long a claim link works (ms): 24 hours. */
export const CLAIM_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim is kept after it was made (ms), so that a used or expired link can say so: 7 days. */
const CLAIM_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The refusal of an address outside the organization's domain, or at a free-mail domain. */
export const WRONG_DOMAIN = REFUSALS.wrongDomain;
/** The refusal of a claim on an organization without a website. */
export const NO_WEBSITE = REFUSALS.noWebsite;
/** The refusal of a claim on an organization an admin took the verification from (only an admin verifies it). */
export const VERIFICATION_REMOVED = REFUSALS.verificationRemoved;
/** The refusal of a claim on an organization that already has a manager (they, or the team, decide who joins). */
export const HAS_MANAGER = REFUSALS.organizationHasManager;

/** A claim as stored. Times are ISO 8601. */
export interface Claim {
  organizationId: string;
  userId: string;
  email: string;
  domain: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

const claimKey = (hash: string): Deno.KvKey => ["organization_claims", hash];
const byUserKey = (userId: string, hash: string): Deno.KvKey => ["organization_claims_by_user", userId, hash];

/** The claim body: the work e-mail to send the link to. */
export const ClaimSchema = z.strictObject({ email: z.email().max(254).transform((email) => email.toLowerCase()) });

/**
 * Whether `email`'s domain may verify an organization whose website host is `host` (`websiteHost`: lower case,
 * "www." dropped): that host exactly, never a subdomain of it (a student's `cse.iitb.ac.in` does not speak for
 * `iitb.ac.in`), never a free-mail domain.
 */
export function domainMatches(email: string, host: string): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return !isFreeMail(domain) && domain === host;
}

/** A claim that passed its checks, to send (`sendClaim`): the organization, who asks, and the work e-mail. */
export interface CheckedClaim {
  organization: Organization;
  user: User;
  email: string;
}

/**
 * Checks that `user` may ask to verify the organization `slug` with `email`. The route then counts the claim
 * (`RATE_LIMITS.organizationClaimsPerPerson`, 5 a day) and sends it (`sendClaim`), so a refused claim is not counted.
 * @throws ForbiddenError for an unverified account e-mail, or `VERIFICATION_REMOVED` for an organization an admin
 * un-verified; NotFoundError for an unknown slug; InvalidInputError `NO_WEBSITE` or `WRONG_DOMAIN`; ConflictError
 * `HAS_MANAGER` for an organization someone else already manages.
 */
export async function checkClaim(
  kv: Deno.Kv,
  { slug, user, email }: { slug: string; user: User; email: string },
): Promise<CheckedClaim> {
  if (!user.emailVerified) throw new ForbiddenError(VERIFY_FIRST);
  const organization = await organizationBySlug(kv, slug);
  if (!organization) throw new NotFoundError(REFUSALS.organizationNotFound);
  if (organization.verificationRemovedAt) throw new ForbiddenError(VERIFICATION_REMOVED);
  const host = websiteHost(organization.website);
  if (!host) throw new InvalidInputError(NO_WEBSITE);
  if (!domainMatches(email, host)) {
    throw new InvalidInputError(WRONG_DOMAIN, [{ field: "email", message: WRONG_DOMAIN }]);
  }
  if (await hasManagerOtherThan(kv, organization.id, user.id)) throw new ConflictError(HAS_MANAGER);
  return { organization, user, email };
}

/** Stores the checked claim and mails its one-time link through the outbox, in the same write. */
export async function sendClaim(services: Services, { organization, user, email }: CheckedClaim): Promise<void> {
  const { kv, config } = services;
  const token = randomToken();
  const hash = await sha256Hex(token);
  const now = Date.now();
  const claim: Claim = {
    organizationId: organization.id,
    userId: user.id,
    email,
    domain: email.slice(email.lastIndexOf("@") + 1),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + CLAIM_TTL_MS).toISOString(),
    usedAt: null,
  };
  const op = kv.atomic()
    .set(claimKey(hash), claim, { expireIn: CLAIM_KEPT_MS })
    .set(byUserKey(user.id, hash), true, { expireIn: CLAIM_KEPT_MS });
  const url = `${config.appUrl}/organizations/claim/${token}`;
  const id = queueMailOps(op, {
    ...organizationClaimMail({
      to: email,
      url,
      organization: organization.name,
      t: translatorOfPerson(user),
    }),
    userId: user.id,
  });
  await op.commit();
  deliverSoon(services, id);
}

/**
 * A claim link as its page shows it before anything changes: `pending` (the claim may be confirmed, by `userId`), or
 * why it cannot verify: `used`, `expired`, `removed` (an admin took the organization's verification away), `moved`
 * (the claim's address is no longer at the organization's website), `managed` (someone else became its manager since
 * the link was sent), `unknown`.
 */
export type ClaimState =
  | { status: "pending"; organization: Organization; email: string; userId: string }
  | { status: "used" | "expired" | "removed" | "moved" | "managed" | "unknown"; organization: Organization | null };

/**
 * What confirming a claim did: `verified`, `notYours` (the presser is not the person who asked; nothing changed), or
 * why the link cannot verify, as in `ClaimState`.
 */
export type ClaimOutcome =
  | { status: "verified"; organization: Organization }
  | { status: "notYours"; organization: Organization; email: string }
  | Exclude<ClaimState, { status: "pending" }>;

const UNKNOWN = { status: "unknown", organization: null } as const;

/** The claim of `hash` and its organization as read, and their state at `now`. */
async function look(kv: Deno.Kv, hash: string, now: Date) {
  const claim = await kv.get<Claim>(claimKey(hash));
  const [entry, managed] = claim.value
    ? await Promise.all([
      getOrganization(kv, claim.value.organizationId),
      hasManagerOtherThan(kv, claim.value.organizationId, claim.value.userId),
    ])
    : [null, false];
  const organization = entry?.value;
  const state = (): ClaimState => {
    if (!claim.value || !organization) return UNKNOWN;
    if (claim.value.usedAt) return { status: "used", organization };
    if (claim.value.expiresAt <= now.toISOString()) return { status: "expired", organization };
    if (organization.verificationRemovedAt) return { status: "removed", organization };
    const host = websiteHost(organization.website);
    if (!host || !domainMatches(claim.value.email, host)) return { status: "moved", organization };
    if (managed) return { status: "managed", organization };
    return { status: "pending", organization, email: claim.value.email, userId: claim.value.userId };
  };
  return { claim, entry, state: state() };
}

/** The SHA-256 of a well-formed token, or null for anything else. */
async function hashOf(token: string): Promise<string | null> {
  return /^[\w-]{20,100}$/.test(token) ? await sha256Hex(token) : null;
}

/** The state of the claim link of `token` at `now` (its page, before anything changes); reads only. */
export async function claimState(kv: Deno.Kv, token: string, now = new Date()): Promise<ClaimState> {
  const hash = await hashOf(token);
  return hash ? (await look(kv, hash, now)).state : UNKNOWN;
}

/**
 * Confirms the claim of `token` as `userId` (null: a guest) at `now` (docs/decisions.md, Trust, "Verification by
 * domain"): only the person who asked confirms, within 24 hours and the first time, while the claim's address is at
 * the organization's website as it is now, no admin took its verification away and nobody else manages it. One write
 * (checked against the claim and the organization, whose record it writes, so two first claims confirmed at once make
 * one manager and the other is `managed` on its retry) then marks the organization verified by the claim's domain (an
 * organization verified before keeps its first verification), makes the claimer a manager and spends the claim.
 * Anything else changes nothing and says why.
 */
export async function followClaim(
  kv: Deno.Kv,
  { token, userId, now = new Date() }: { token: string; userId: string | null; now?: Date },
): Promise<ClaimOutcome> {
  const hash = await hashOf(token);
  if (!hash) return UNKNOWN;
  for (let attempt = 0; attempt < 10; attempt++) {
    const { claim, entry, state } = await look(kv, hash, now);
    if (state.status !== "pending") return state;
    const { organization, email } = state;
    if (state.userId !== userId) return { status: "notYours", organization, email };
    const at = now.toISOString();
    const verified: Organization = organization.isVerified
      ? organization
      : { ...organization, isVerified: true, verifiedDomain: claim.value!.domain, verifiedAt: at };
    const left = Date.parse(claim.value!.createdAt) + CLAIM_KEPT_MS - now.getTime();
    const spend = (op: Deno.AtomicOperation) => {
      op.check(claim).set(claim.key, { ...claim.value!, usedAt: at }, { expireIn: Math.max(left, 1000) });
      addManagerOps(op, organization.id, state.userId, at);
    };
    let outcome: string;
    if (organization.isVerified) {
      // The record written as it is: its new versionstamp fails a concurrent claim's check.
      outcome = await touchOrganization(kv, entry as Deno.KvEntry<Organization>, spend) ? "ok" : "lost";
    } else outcome = await replaceOrganization(kv, entry as Deno.KvEntry<Organization>, verified, spend);
    if (outcome === "ok") return { status: "verified", organization: verified };
  }
  return UNKNOWN;
}

/** The claims `userId` made in the last 7 days (the account export): to which organization, the address, the times. */
export async function claimsOf(kv: Deno.Kv, userId: string): Promise<Claim[]> {
  const claims: Claim[] = [];
  for await (const entry of kv.list({ prefix: ["organization_claims_by_user", userId] })) {
    const claim = (await kv.get<Claim>(claimKey(entry.key[2] as string))).value;
    if (claim) claims.push(claim);
  }
  return claims;
}

/** Deletes every claim `userId` made (account deletion); idempotent. */
export async function deleteClaimsOf(kv: Deno.Kv, userId: string): Promise<void> {
  for await (const entry of kv.list({ prefix: ["organization_claims_by_user", userId] })) {
    const hash = entry.key[2] as string;
    await kv.atomic().delete(claimKey(hash)).delete(entry.key).commit();
  }
}
