/**
 * Typed guards for permissions (docs/api.md, Authentication, "Roles"): a missing session is 401,
 * an insufficient role 403. There is no guard by role alone: an admin's powers go through `isAdmin`
 * (`lib/users/roles.ts`), which also requires a verified address.
 */
import { ForbiddenError, UnauthenticatedError } from "@/lib/errors.ts";
import type { AppState, SignedInState } from "@/lib/platform/state.ts";
import type { User } from "@/lib/users/users.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Narrows the state to a signed-in one. @throws UnauthenticatedError without a session. */
export function assertSignedIn(state: AppState): asserts state is SignedInState {
  if (!state.user || !state.session) throw new UnauthenticatedError();
}

/**
 * The admin area's guard: an admin whose address is verified. An account made admin at sign-up, before the role waited
 * for the address to be proven, keeps the role but none of its powers until it verifies (docs/decisions.md, Auth,
 * "`ADMIN_EMAILS` counts once the address is verified").
 * @throws ForbiddenError for other roles, and with `REFUSALS.verifyToAdmin` for an admin whose address is not verified.
 */
export function assertVerifiedAdmin(user: User): void {
  if (isAdmin(user)) return;
  const adminOnceVerified = isAdmin({ role: user.role, emailVerified: true });
  throw adminOnceVerified ? new ForbiddenError(REFUSALS.verifyToAdmin) : new ForbiddenError();
}
