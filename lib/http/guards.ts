/**
 * Typed guards for permissions (docs/api.md, Authentication, "Roles"): a missing session is 401,
 * an insufficient role 403.
 */
import { ForbiddenError, UnauthenticatedError } from "@/lib/errors.ts";
import type { AppState, SignedInState } from "@/lib/platform/state.ts";
import type { Role, User } from "@/lib/users/users.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Narrows the state to a signed-in one. @throws UnauthenticatedError without a session. */
export function assertSignedIn(state: AppState): asserts state is SignedInState {
  if (!state.user || !state.session) throw new UnauthenticatedError();
}

/** @throws ForbiddenError unless the user has one of `roles`. */
export function assertRole(user: User, ...roles: Role[]): void {
  if (!roles.includes(user.role)) throw new ForbiddenError();
}

/**
 * The admin area's guard: an admin whose address is verified. An account made admin at sign-up, before the role waited
 * for the address to be proven, keeps the role but none of its powers until it verifies (docs/decisions.md, Auth,
 * "`ADMIN_EMAILS` counts once the address is verified").
 * @throws ForbiddenError for other roles, and with `REFUSALS.verifyToAdmin` for an admin whose address is not verified.
 */
export function assertVerifiedAdmin(user: User): void {
  assertRole(user, "admin");
  if (!user.emailVerified) throw new ForbiddenError(REFUSALS.verifyToAdmin);
}
