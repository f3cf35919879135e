/**
 * The roles (docs/api.md, Authentication): `user`, `member`, `admin`. A module of its own so
 * that islands (the admin users table) can import the list without the users domain and zod.
 */

/** Every role, from least to most trusted. */
export const ROLES = ["user", "member", "admin"] as const;

/** One of `ROLES`. */
export type Role = typeof ROLES[number];
