/**
 * `/sign-in?callbackURL=&error=`: the e-mail sign-in form. `callbackURL` is kept only when it
 * is a path on this origin (CONTRACT.md §2, no open redirects). `error` carries a code from a
 * failed verification link (`INVALID_TOKEN`) or social sign-in; only known codes are explained,
 * the text is never echoed. A signed-in user goes straight on to `callbackURL` or `/`.
 */
import { FormCard } from "../components/FormCard.tsx";
import { Notice } from "../components/forms.tsx";
import { PageTitle } from "../components/PageTitle.tsx";
import SignInForm from "../islands/SignInForm.tsx";
import { checkRedirect } from "../lib/http/redirects.ts";
import type { AppState } from "../lib/platform/state.ts";
import type { Handlers, PageProps } from "../lib/web/types.ts";

/** `value` when it stays on this origin (`checkRedirect`, CONTRACT.md §2), else null. */
function sameOrigin(value: string | null, appUrl: string): string | null {
  if (value === null) return null;
  try {
    return checkRedirect("callbackURL", value, appUrl) ?? null;
  } catch {
    return null;
  }
}

const ERRORS: Record<string, { title: string; text: string }> = {
  INVALID_TOKEN: {
    title: "This verification link has expired or was already used",
    text: "Sign in with your e-mail and password: if your e-mail is not verified yet, we will send you a new link.",
  },
  ACCOUNT_NOT_LINKED: {
    title: "We could not link that account",
    text: "An account with this e-mail already exists. Sign in with your e-mail and password instead.",
  },
};

const SOCIAL_FAILED = {
  title: "Sign-in did not complete",
  text: "The sign-in with your social account was cancelled or failed. Please try again.",
};

interface Data {
  callbackURL: string | null;
}

export const handler: Handlers<Data, AppState> = {
  GET(_req, ctx) {
    const callbackURL = sameOrigin(ctx.url.searchParams.get("callbackURL"), ctx.state.services.config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    return ctx.render({ callbackURL });
  },
};

export default function SignInPage({ data, url }: PageProps<Data>) {
  const code = url.searchParams.get("error");
  const error = code ? Object.hasOwn(ERRORS, code) ? ERRORS[code] : SOCIAL_FAILED : undefined;
  return (
    <FormCard title="Sign in">
      <PageTitle title="Sign in" />
      {error && <Notice kind="error" title={error.title}>{error.text}</Notice>}
      <SignInForm callbackURL={data.callbackURL} />
      <p class="text-sm text-slate-700">
        New here? <a href="/sign-up" class="font-medium text-indigo-700 underline">Create an account</a>
      </p>
    </FormCard>
  );
}
