/**
 * Busy plain forms (docs/decisions.md, Islands, "Busy plain forms"), within the module every page loads
 * (`register_sw.ts`), so it costs no request of its own: a form the browser posts itself (no island stopped its submit:
 * before the islands hydrate, or a form without one) is marked busy until the answer replaces the page: `aria-busy` on
 * the form, its button dimmed. Every later submit of that form is stopped before any handler sees it, an island's that
 * hydrated in the meantime included, so a second tap on a slow connection sends nothing (it could undo the first). A
 * `GET` or `dialog` form and one sent to another window (`target`) stay as they are. The form is unmarked when the page
 * is shown again (Back restoring it from the back-forward cache), and `BUSY_MS` after its submit if the page is still
 * there: the person pressed Stop or the navigation was cancelled, and would otherwise never send it again. A form
 * sent while the browser knows it has no connection (`navigator.onLine` false) is not sent at all: the browser would
 * replace the page by its error page and what was typed with it (a cover note, answers, a chosen file). The page stays
 * as it is and the sentence of `OfflineUnsentNotice` (`components/OfflineNotice.tsx`, the page's language) shows by
 * the form's button until the connection is back. A connection that reaches nothing or drops (`navigator.onLine` still
 * true) fails the form at the service worker, which keeps the page (a 204 answer) and tells it (`FORM_UNSENT`): the
 * forms sent from the page, busy or past their busy period (the failure of a dead route can take minutes), are unmarked
 * and show the other sentence of `OfflineUnsentNotice`: no answer came, so it may or may not have been sent (the server
 * may have taken it before the connection dropped; "nothing was sent" would be a guess). Without JavaScript, forms post
 * as always.
 */
import { FORM_UNSENT, type WorkerNotice } from "@/lib/offline/messages.ts";

/** How long a form stays busy while its page stays (ms): longer than a slow phone's answer, short of giving up on it. */
const BUSY_MS = 20_000;

/**
 * The forms sent from this page, each with the button it was sent with (where the sentence of a form not sent goes),
 * busy or no longer: a connection that reaches nothing may fail one long after its busy period (`FORM_UNSENT`).
 */
const sent = new Map<HTMLFormElement, HTMLElement | null>();

/** The pending unmarking of each busy form, so a later submit's period is not cut short by an earlier one's. */
const unmarkTimers = new WeakMap<HTMLFormElement, ReturnType<typeof setTimeout>>();

/** Takes the busy mark off `form` and its dimmed button. */
function unmark(form: HTMLFormElement): void {
  clearTimeout(unmarkTimers.get(form));
  unmarkTimers.delete(form);
  form.removeAttribute("aria-busy");
  form.style.cursor = "";
  for (const control of form.elements) if (control instanceof HTMLElement) control.style.opacity = "";
}

addEventListener("submit", (event) => {
  if (!(event.target instanceof HTMLFormElement) || event.target.getAttribute("aria-busy") !== "true") return;
  event.preventDefault();
  event.stopImmediatePropagation();
}, { capture: true });

/**
 * The ids of the `<template>`s holding the page's sentences (`OfflineUnsentNotice`): a form held back offline ("nothing
 * was sent"), and one the network failed ("no answer came: it may or may not have been sent").
 */
const UNSENT_TEMPLATE = "offline-unsent";
const UNANSWERED_TEMPLATE = "offline-unanswered";

/** Shows the sentence of `template` after `submitter` (else at the end of `form`), once per form. */
function tellUnsent(form: HTMLFormElement, submitter: HTMLElement | null, template = UNSENT_TEMPLATE): void {
  const sentence = document.getElementById(template);
  form.querySelector("[data-offline-unsent]")?.remove();
  const notice = sentence instanceof HTMLTemplateElement ? sentence.content.firstElementChild?.cloneNode(true) : null;
  if (!(notice instanceof HTMLElement)) return;
  notice.setAttribute("role", "alert");
  if (submitter && form.contains(submitter)) submitter.insertAdjacentElement("afterend", notice);
  else form.append(notice);
}

addEventListener("online", () => {
  for (const notice of document.querySelectorAll("form [data-offline-unsent]")) notice.remove();
});

addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method !== "post" || form.target) return;
  if (!navigator.onLine) {
    event.preventDefault();
    tellUnsent(form, event.submitter instanceof HTMLElement ? event.submitter : null);
    return;
  }
  form.setAttribute("aria-busy", "true");
  form.style.cursor = "progress";
  const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
  if (submitter) submitter.style.opacity = "0.6";
  sent.set(form, submitter);
  unmarkTimers.set(form, setTimeout(() => unmark(form), BUSY_MS));
});

addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  sent.clear();
  for (const form of document.querySelectorAll<HTMLFormElement>("form[aria-busy=true]")) unmark(form);
});

navigator.serviceWorker?.addEventListener("message", (event: MessageEvent<WorkerNotice>) => {
  if (event.data?.type !== FORM_UNSENT.type) return;
  for (const [form, submitter] of sent) {
    unmark(form);
    if (form.isConnected) tellUnsent(form, submitter, UNANSWERED_TEMPLATE);
  }
  sent.clear();
});
