/**
 * Typed guards for permissions (docs/api.md, Authentication, "Roles"): a missing session is 401,
 * an insufficient role 403.
 */
import { ForbiddenError, UnauthenticatedError } from "@/lib/errors.ts";
import type { AppState, SignedInState } from "@/lib/platform/state.ts";
import type { Role, User } from "@/lib/users/users.ts";

/** Narrows the state to a signed-in one. @throws UnauthenticatedError without a session. */
export function assertSignedIn(state: AppState): asserts state is SignedInState {
  if (!state.user || !state.session) throw new UnauthenticatedError();
}

/** @throws ForbiddenError unless the user has one of `roles`. */
export function assertRole(user: User, ...roles: Role[]): void {
  if (!roles.includes(user.role)) throw new ForbiddenError();
}
