/**
 * The roles (docs/api.md, Authentication): `user`, `member`, `admin`. A module of its own so
 * that islands (the admin users table) can import the list without the users domain and zod.
 */

/** Every role, from least to most trusted. */
export const ROLES = ["user", "member", "admin"] as const;

/** One of `ROLES`. */
export type Role = typeof ROLES[number];

/**
 * Whether `person` holds the admin role's powers: role `admin` with a verified address. An account made admin at
 * sign-up, before the role waited for the address to be proven, keeps the role but none of its powers until it
 * verifies (docs/decisions.md, Auth, "`ADMIN_EMAILS` counts once the address is verified"). Every admin power is checked
 * through this (tests/import_graph_test.ts holds that).
 */
export function isAdmin(person: { role: Role; emailVerified: boolean } | null | undefined): boolean {
  return person?.role === "admin" && person.emailVerified;
}

/**
 * How a record kept after its person deleted their account names them: an internship, opportunity, post or toolkit
 * whose owner is null (docs/decisions.md, Data rights).
 */
export const FORMER_MEMBER = "Former member";
