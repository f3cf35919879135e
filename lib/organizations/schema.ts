/**
 * The Organization resource (docs/api.md, Trust; docs/decisions.md, Trust, "Organizations"): the record, the summary
 * every internship carries, how a name is matched and made into a slug, and the zod schemas of the bodies and queries.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";

/** An organization as stored and answered. Times are ISO 8601. */
export interface Organization {
  id: string;
  /** Lower-case ASCII letters, digits and hyphens from the name; unique; kept when the name changes. */
  slug: string;
  name: string;
  /** Its own site (`https://…`), set by an admin or a manager; the claim's domain must be its host. */
  website: string | null;
  isVerified: boolean;
  /** The domain of the e-mail that verified it (a claim), or null (none, or verified by an admin). */
  verifiedDomain: string | null;
  verifiedAt: string | null;
  /**
   * When an admin took the verification away (un-verified it, or hid it on reports); absent when never, or once an
   * admin verified it again. While set, claims are refused and only an admin changes the website.
   */
  verificationRemovedAt?: string;
  /** A few words about it, plain text, set by an admin or a manager. */
  about: string | null;
  createdAt: string;
}

/** The organization as every internship carries it. */
export interface OrganizationSummary {
  id: string;
  slug: string;
  name: string;
  isVerified: boolean;
}

/** The summary of `organization`. */
export function summaryOf(organization: Organization): OrganizationSummary {
  const { id, slug, name, isVerified } = organization;
  return { id, slug, name, isVerified };
}

/**
 * The key two names are matched by (docs/decisions.md, Trust, "Organizations"): compatibility forms folded (NFKC),
 * spaces trimmed and collapsed, lower case. "  Acme   Labs " and "ACME LABS" are one organization.
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** The longest slug, in characters. */
const SLUG_MAX = 60;

/**
 * The slug a name starts from: accents dropped, lower case, every run of anything but ASCII letters and digits one
 * hyphen, at most 60 characters (cut at a hyphen), "organization" when nothing is left (a name in another script).
 * A taken slug gets "-2", "-3", … (`slugCandidates`).
 */
export function slugBase(name: string): string {
  let slug = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length > SLUG_MAX) {
    const cut = slug.slice(0, SLUG_MAX);
    slug = cut.includes("-") ? cut.slice(0, cut.lastIndexOf("-")) : cut;
  }
  return slug || "organization";
}

/** Slugs to try for `base`, in order: `base`, then `base-2` … from `from` on, `count` of them. */
export function slugCandidates(base: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => (from + i === 1 ? base : `${base}-${from + i}`));
}

/** The host of a website URL, lower case without a leading "www.", or null when it has none. */
export function websiteHost(website: string | null): string | null {
  if (!website) return null;
  try {
    return new URL(website).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

const website = z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(200).nullable();
const about = TextSchema.trim().max(2000).nullable().transform((text) => text || null);

/** `PATCH /api/organizations/{slug}` (a manager): the website (until verified) and the about text. */
export const ManagerPatchSchema = z.strictObject({ website: website.optional(), about: about.optional() });
export type ManagerPatch = z.infer<typeof ManagerPatchSchema>;

/** `PATCH /api/admin/organizations/{id}`: the name, website, about text and verified state. */
export const AdminPatchSchema = z.strictObject({
  name: TextSchema.trim().min(1).max(200).optional(),
  website: website.optional(),
  about: about.optional(),
  isVerified: z.boolean().optional(),
});
export type AdminPatch = z.infer<typeof AdminPatchSchema>;

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * `GET /api/admin/organizations`: `search` (part of the name, any case), `verified` (`true` or `false`; all when
 * absent), `limit` 1–100 (default 50), `offset`.
 */
export const AdminOrganizationQuerySchema = z.strictObject({
  search: z.string().max(200).optional().transform((text) => text ? nameKey(text) : ""),
  verified: z.enum(["true", "false"]).optional().transform((flag) => flag === undefined ? undefined : flag === "true"),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type AdminOrganizationQuery = z.infer<typeof AdminOrganizationQuerySchema>;
