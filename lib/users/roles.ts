/**
 * The roles (docs/api.md, Authentication): `user`, `member`, `admin`. A module of its own so
 * that islands (the admin users table) can import the list without the users domain and zod.
 */

/** Every role, from least to most trusted. */
export const ROLES = ["user", "member", "admin"] as const;

/** One of `ROLES`. */
export type Role = typeof ROLES[number];

/**
 * How a record kept after its person deleted their account names them: an internship, opportunity, post or toolkit
 * whose owner is null (docs/decisions.md, Data rights).
 */
export const FORMER_MEMBER = "Former member";
