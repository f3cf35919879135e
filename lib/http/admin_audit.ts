/**
 * The audit hook of an admin route (docs/decisions.md, Admin, "Audit log"): the signed-in admin's entry for `action`
 * on a `targetKind` record, handed to the domain function that writes it.
 */
import {
  type AdminAction,
  appendAdminLog,
  type AuditHook,
  auditOps,
  type TargetKind,
} from "@/lib/admin_log/admin_log.ts";
import type { AppState } from "@/lib/platform/state.ts";
import { assertSignedIn } from "./guards.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/**
 * The hook recording `action` by the caller on a `targetKind` record, with the route's `summary` when it has one.
 * @throws UnauthenticatedError without a session (the admin folders' middleware answers first).
 */
export function adminAudit(
  state: AppState,
  { action, targetKind, summary }: { action: AdminAction; targetKind: TargetKind; summary?: string },
): AuditHook {
  assertSignedIn(state);
  return auditOps({ adminId: state.user.id, action, targetKind, summary });
}

/**
 * `adminAudit`'s hook whose entry names what changed (`change`, such as `"isActive: true"`) after the words the domain
 * function gives (the record's title): `"Resume Toolkit: isActive: true"`. Used by the admin row forms
 * (docs/decisions.md, Islands, "A row's plain form saves what its reader changed").
 * @throws UnauthenticatedError without a session.
 */
export function adminAuditOfChange(
  state: AppState,
  { action, targetKind, change }: { action: AdminAction; targetKind: TargetKind; change: string },
): AuditHook {
  const hook = adminAudit(state, { action, targetKind, summary: change });
  return (op, targetId, summary) => hook(op, targetId, summary ? `${summary}: ${change}` : change);
}

/**
 * `adminAudit`'s hook when the caller is an admin using a power anyone else with access has too (an internship's
 * owner edits it as well), else none: only an admin's writes are logged.
 */
export function auditIfAdmin(
  state: AppState,
  entry: { action: AdminAction; targetKind: TargetKind; summary?: string },
): AuditHook | undefined {
  return isAdmin(state.user) ? adminAudit(state, entry) : undefined;
}

/**
 * Appends the caller's entry in a write of its own, right after a change that is not one atomic write succeeded.
 * @throws UnauthenticatedError without a session.
 */
export async function logAdminWrite(
  state: AppState,
  entry: { action: AdminAction; targetKind: TargetKind; targetId: string; summary?: string },
): Promise<void> {
  assertSignedIn(state);
  await appendAdminLog(state.services.kv, { adminId: state.user.id, ...entry });
}
