/**
 * Escape closes an open menu (docs/decisions.md, Islands, "Menus close on Escape"): a menu is a
 * `<details data-menu>`, which opens without JavaScript but has no key to close it. The one holding the focus, or with
 * nothing focused (a tap) the open one, closes and puts the focus on its `<summary>`; a key another handler took is
 * left. Every page runs it, within the module every page loads (`register_sw.ts`), so it costs no request of its own.
 */
addEventListener("keydown", (event) => {
  const open = "details[data-menu][open]";
  const focused = document.activeElement;
  const menu = event.key !== "Escape" || event.defaultPrevented
    ? null
    : !focused || focused === document.body
    ? document.querySelector<HTMLDetailsElement>(open)
    : focused.closest<HTMLDetailsElement>(open);
  if (menu) {
    menu.open = false;
    menu.querySelector("summary")?.focus();
  }
});
