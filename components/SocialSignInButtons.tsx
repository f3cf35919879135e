/**
 * "Continue with Google" and "Continue with LinkedIn" on the sign-in and sign-up pages (`GET /api/auth/sign-in/social`;
 * docs/decisions.md, Social sign-in): plain links, so they work before and without JavaScript. Only the providers given
 * (the configured ones) are shown, followed by an "or" divider unless `divider` is false (a page that offers only them);
 * `fresh` makes them ask the provider for a new login (`/profile/delete`). The buttons follow the providers' brand guidelines:
 * Google's light button (white, #747775 border, the four-colour "G", #1F1F1F text) and LinkedIn's blue (#0A66C2) with
 * the white "in" mark.
 */
import { socialSignInHref } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";

/** A provider as the buttons need it. */
export interface SocialButtonProvider {
  id: "google" | "linkedin";
  name: string;
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" class="h-5 w-5 shrink-0">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

function LinkedInMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" class="h-5 w-5 shrink-0" fill="#FFFFFF">
      <path d="M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28zM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13zM7.12 20.45H3.56V9h3.56v11.45zM22.23 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0z" />
    </svg>
  );
}

const STYLES: Record<SocialButtonProvider["id"], string> = {
  google: "border border-[#747775] bg-white text-[#1F1F1F] hover:bg-slate-50",
  linkedin: "border border-[#0A66C2] bg-[#0A66C2] text-white hover:bg-[#004182]",
};

export function SocialSignInButtons(
  { providers, callbackURL, newUserCallbackURL, divider = true, fresh = false }: {
    providers: SocialButtonProvider[];
    callbackURL: string;
    newUserCallbackURL: string;
    divider?: boolean;
    fresh?: boolean;
  },
) {
  const t = useT();
  if (providers.length === 0) return null;
  return (
    <div class="space-y-3">
      {providers.map((provider) => (
        <a
          key={provider.id}
          href={socialSignInHref(provider.id, callbackURL, newUserCallbackURL, fresh)}
          class={`flex w-full items-center justify-center gap-3 rounded-md px-4 py-2.5 text-sm font-medium ${
            STYLES[provider.id]
          }`}
        >
          {provider.id === "google" ? <GoogleMark /> : <LinkedInMark />}
          <span>{t("auth.social.continue", { provider: provider.name })}</span>
        </a>
      ))}
      {divider && (
        <p class="flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
          <span class="h-px flex-1 bg-slate-200" />
          {t("auth.social.or")}
          <span class="h-px flex-1 bg-slate-200" />
        </p>
      )}
    </div>
  );
}
