/**
 * The one HTML layout of every e-mail (the texts stay plain): the document, its title, the platform's type and colour,
 * the body, and the platform's name last; a link drawn as a button, and the small print that says why the mail came
 * and how to stop it. Rendered with `preact-render-to-string`, which escapes every value placed in it.
 */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";

/** The name the mails sign with. */
export const PLATFORM = "Career Community";

/**
 * The HTML of a mail titled `title` whose content is `body`, in the layout: in language `lang` (default English),
 * signed `signature` (default the platform's name).
 */
export function mailHtml(
  title: string,
  body: ComponentChildren,
  { lang = "en", signature = PLATFORM }: { lang?: string; signature?: string } = {},
): string {
  return "<!doctype html>\n" + renderToString(
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <title>{title}</title>
      </head>
      <body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">
        {body}
        <p>{signature}</p>
      </body>
    </html>,
  );
}

/** A link drawn as a button: the mail's main action. */
export function MailButton({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p>
      <a
        href={href}
        style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px"
      >
        {children}
      </a>
    </p>
  );
}

/** The small print under a mail: why it came, and how to turn such mails off. */
export function SmallPrint({ children }: { children: ComponentChildren }) {
  return <p style="font-size:13px;color:#374151">{children}</p>;
}
