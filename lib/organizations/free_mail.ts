/**
 * E-mail domains anyone can sign up at (docs/decisions.md, Trust, "Verification by domain"): an address there proves
 * nothing about who employs its owner, so a claim from one never verifies an organization.
 */

/** The free-mail domains, lower case. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.in",
  "yahoo.in",
  "ymail.com",
  "rocketmail.com",
  "outlook.com",
  "outlook.in",
  "hotmail.com",
  "hotmail.co.in",
  "live.com",
  "live.in",
  "msn.com",
  "rediffmail.com",
  "rediff.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "pm.me",
  "zoho.com",
  "zohomail.com",
  "zohomail.in",
  "aol.com",
  "gmx.com",
  "gmx.net",
  "mail.com",
  "yandex.com",
  "yandex.ru",
  "tutanota.com",
  "tuta.io",
  "fastmail.com",
  "hey.com",
  "indiatimes.com",
  "sify.com",
]);

/** Whether `domain` (lower case) is a free-mail domain or one of its subdomains. */
export function isFreeMail(domain: string): boolean {
  const parts = domain.split(".");
  for (let i = 0; i < parts.length - 1; i++) if (FREE_MAIL_DOMAINS.has(parts.slice(i).join("."))) return true;
  return false;
}
