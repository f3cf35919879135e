/**
 * The auth input rules (docs/decisions.md, Auth): the e-mail field and the password length rule. The bodies of
 * `/api/auth/*` are read by `readAuthBody` (`lib/http/auth_body.ts`).
 */
import { z } from "zod";
import { AuthError } from "@/lib/errors.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./passwords.ts";

/** Longest accepted e-mail address, in characters (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

/** An e-mail address: trimmed, at most `EMAIL_MAX` characters, well-formed. */
export const EmailField = z.string().trim().max(EMAIL_MAX).pipe(z.email());

/**
 * Enforces the password length rule, counted in characters (code points).
 * @throws AuthError 400 `PASSWORD_TOO_SHORT` under `PASSWORD_MIN`, `PASSWORD_TOO_LONG` over `PASSWORD_MAX`.
 */
export function checkPasswordLength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new AuthError("PASSWORD_TOO_SHORT", "Password too short");
  if (length > PASSWORD_MAX) throw new AuthError("PASSWORD_TOO_LONG", "Password too long");
}
