/**
 * `POST /language` `{lang, back}` (a form): the header's language switch (docs/decisions.md, Languages, "The switch").
 * Keeps `lang` in the `lang` cookie for a year and, for a signed-in person, as their `language` setting (so their
 * pages and e-mails follow it), then answers 303 to `back` (the page's path and query; a path of another origin or
 * none is `/`) with `lang=<lang>` in its query. An unknown `lang` is 400. The CSRF origin check runs before this, with
 * the login-CSRF rule (a post naming another origin is 403, with or without a session: the refusal's page in the
 * reader's language for a browser's form).
 */
import { define } from "@/lib/platform/define.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { langCookie } from "@/lib/http/language.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { isLang, withLang } from "@/lib/i18n/languages.ts";
import { updateUser } from "@/lib/users/users.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/**
 * A signed-in person's switch falls under the per-person limit `settings`. The login-CSRF rule too: a guest's switch
 * carries no session cookie to hold it to our origin, yet keeps a cookie, so one naming another origin is refused.
 */
export const routeOptions: RouteOptions = { originCheck: "login", personLimit: "settings" };

export const handler = define.handlers({
  async POST(req, ctx) {
    const { config, kv } = ctx.state.services;
    const form = await readFormFields(req, ["lang", "back"]);
    if (!isLang(form.lang)) throw new InvalidInputError("Invalid lang");
    const back = returnPage(form.back || null, config.appUrl) ?? "/";
    const user = ctx.state.user;
    if (user && user.language !== form.lang) await updateUser(kv, user.id, { language: form.lang });
    return seeOther(withLang(back, form.lang), { "set-cookie": langCookie(form.lang, config.secure) });
  },
});
