/**
 * Busy plain forms (docs/decisions.md, Islands, "Busy plain forms"), within the module every page loads
 * (`register_sw.ts`), so it costs no request of its own: a form the browser posts itself (no island stopped its submit:
 * before the islands hydrate, or a form without one) is marked busy until the answer replaces the page: `aria-busy` on
 * the form, its button dimmed. Every later submit of that form is stopped before any handler sees it, an island's that
 * hydrated in the meantime included, so a second tap on a slow connection sends nothing (it could undo the first). A
 * `GET` or `dialog` form and one sent to another window (`target`) stay as they are; a page restored from the
 * back-forward cache (Back) is unmarked. Without JavaScript, forms post as always.
 */
addEventListener("submit", (event) => {
  if (!(event.target instanceof HTMLFormElement) || event.target.getAttribute("aria-busy") !== "true") return;
  event.preventDefault();
  event.stopImmediatePropagation();
}, { capture: true });

addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method !== "post" || form.target) return;
  form.setAttribute("aria-busy", "true");
  form.style.cursor = "progress";
  if (event.submitter instanceof HTMLElement) event.submitter.style.opacity = "0.6";
});

addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll<HTMLFormElement>("form[aria-busy=true]")) {
    form.removeAttribute("aria-busy");
    form.style.cursor = "";
    for (const control of form.elements) if (control instanceof HTMLElement) control.style.opacity = "";
  }
});
