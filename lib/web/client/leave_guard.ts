/**
 * What was typed is not left behind unasked (docs/decisions.md, Islands, "Leaving a typed form"), within the module
 * every page loads (`register_sw.ts`), so it costs no request of its own: leaving a page (a link, Back, closing the tab)
 * while a form on it holds words not sent makes the browser ask first, in its own words and language. A form says it
 * holds them in one of two ways:
 * - a plain form marked `data-keep-typed` (the application's cover note and answers) does when one of its controls
 *   differs from what the page was drawn with: a text typed, a box ticked, an option or a file chosen;
 * - an island marks a form `data-unsaved` while what it holds differs from what it saved (a tracker note, a comment),
 *   since an island saves in place and the page is not drawn again; so does the server a plain form it draws again
 *   with what was sent and refused (the application, a report, a resolution), whose words are its defaults then.
 * A form being sent (`aria-busy`, `busy_forms.ts`) is the person leaving with their words, so it does not ask; once the
 * connection fails it (`FORM_UNSENT`), or its busy period ends, it asks again. A form marked `data-discards-typed`
 * (deleting the account) makes every word on the page moot: while it is being sent, leaving asks nothing at all. The
 * browser asks only after the person has touched the page, and the listener is added on their first input (at once on
 * a page with a form sent back), so a page nobody typed on has none.
 */

/** Whether `select`'s choice differs from the one its options were drawn with (the first, when none says). */
function selectChanged(select: HTMLSelectElement): boolean {
  if (select.multiple) return [...select.options].some((option) => option.selected !== option.defaultSelected);
  const drawn = [...select.options].findIndex((option) => option.defaultSelected);
  return select.selectedIndex !== Math.max(drawn, 0);
}

/** Whether a control of `form` differs from what the page was drawn with. */
function fieldsChanged(form: HTMLFormElement): boolean {
  for (const control of form.elements) {
    if (control instanceof HTMLInputElement) {
      if (control.type === "checkbox" || control.type === "radio") {
        if (control.checked !== control.defaultChecked) return true;
      } else if (control.type !== "hidden" && control.value !== control.defaultValue) return true;
    } else if (control instanceof HTMLTextAreaElement) {
      if (control.value !== control.defaultValue) return true;
    } else if (control instanceof HTMLSelectElement && selectChanged(control)) return true;
  }
  return false;
}

/** Whether a form on the page holds words not sent (see the module's docstring). */
function holdsUnsent(): boolean {
  if (document.querySelector('form[data-discards-typed][aria-busy="true"]')) return false;
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-keep-typed], form[data-unsaved]")) {
    if (form.getAttribute("aria-busy") === "true") continue;
    if (form.hasAttribute("data-unsaved") || fieldsChanged(form)) return true;
  }
  return false;
}

function askBeforeLeaving(event: BeforeUnloadEvent): void {
  if (!holdsUnsent()) return;
  event.preventDefault();
  // Older browsers ask only when `returnValue` is set.
  event.returnValue = "";
}

/** Makes leaving ask while a form holds words not sent (`askBeforeLeaving`). */
const listen = () => addEventListener("beforeunload", askBeforeLeaving);

// A form the server drew again with what was sent and refused holds those words before any input.
if (document.querySelector("form[data-unsaved]")) listen();
else addEventListener("input", listen, { capture: true, once: true });
