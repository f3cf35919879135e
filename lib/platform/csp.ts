/**
 * The Content-Security-Policy of HTML documents, in one place: `app.ts` sends `DOCUMENT_CSP` with
 * every page, and a page that needs one more host sends `documentCsp(extra)` itself (the document
 * headers never overwrite a header the page set). The toolkit page adds Razorpay Checkout.js
 * (`checkoutCsp`), the lesson viewer the video hosts of its lessons (`LESSON_CSP`).
 */

/** The directives of every document, by camel-case name as `hono/secure-headers` takes them. */
export const DOCUMENT_CSP: Record<
  | "defaultSrc"
  | "scriptSrc"
  | "styleSrc"
  | "imgSrc"
  | "connectSrc"
  | "frameSrc"
  | "frameAncestors"
  | "formAction"
  | "baseUri"
  | "objectSrc",
  string[]
> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "https:"],
  connectSrc: ["'self'"],
  frameSrc: ["https://www.youtube-nocookie.com", "https://player.vimeo.com"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
};

/** A directive name of `DOCUMENT_CSP`, or `mediaSrc`. */
export type CspDirective = keyof typeof DOCUMENT_CSP | "mediaSrc";

/** Extra sources per directive, added to `DOCUMENT_CSP`'s (a missing directive starts from nothing). */
export type CspExtra = Partial<Record<CspDirective, readonly string[]>>;

/**
 * Razorpay Checkout.js, loaded from `scriptUrl` (`RAZORPAY_CHECKOUT_URL`: Razorpay's, or the
 * local demo's stand-in): its script's origin, for the script and the requests it makes (the
 * stand-in records the payment at the fake gateway), and the frame it opens (toolkit page only).
 */
export function checkoutCsp(scriptUrl: string): CspExtra {
  const origin = new URL(scriptUrl).origin;
  return { scriptSrc: [origin], connectSrc: [origin], frameSrc: ["https://api.razorpay.com"] };
}

/** Lesson videos served from a content delivery network over https (lesson viewer only). */
export const LESSON_CSP: CspExtra = { mediaSrc: ["'self'", "https:"] };

/** The `Content-Security-Policy` header value of a document with `extra` sources. */
export function documentCsp(extra: CspExtra = {}): string {
  const directives: Partial<Record<CspDirective, readonly string[]>> = { ...DOCUMENT_CSP };
  for (const [name, sources] of Object.entries(extra) as [CspDirective, readonly string[]][]) {
    directives[name] = [...directives[name] ?? [], ...sources];
  }
  return Object.entries(directives)
    .map(([name, sources]) => `${name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())} ${sources!.join(" ")}`)
    .join("; ");
}
