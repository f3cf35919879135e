/** Response shapes of `/api/auth/*` (docs/decisions.md, Auth): the user and session as clients see them. */
import type { User } from "@/lib/users/users.ts";
import type { Session } from "./sessions.ts";

/** The user fields of auth responses. */
export interface AuthUserView {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  role: User["role"];
  createdAt: string;
  updatedAt: string;
}

/** The session fields of `GET /api/auth/session`. */
export type SessionView = Pick<Session, "id" | "userId" | "expiresAt" | "createdAt">;

/** `user` as auth responses show it (profile fields are left to `/api/profile`). */
export function authUserView(user: User): AuthUserView {
  const { id, name, email, emailVerified, image, role, createdAt, updatedAt } = user;
  return { id, name, email, emailVerified, image, role, createdAt, updatedAt };
}

/** `session` as `GET /api/auth/session` shows it. */
export function sessionView(session: Session): SessionView {
  const { id, userId, expiresAt, createdAt } = session;
  return { id, userId, expiresAt, createdAt };
}
