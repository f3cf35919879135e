/**
 * A person's role drawn as a styled label beside their name (docs/decisions.md, Comments and reactions, "An admin's
 * comment is marked"): a label the page draws from the role, which no typed name can copy. `role` is kept in
 * `data-badge`; `label` is the role's name in the reader's language.
 */
export function RoleBadge({ role, label }: { role: string; label: string }) {
  return (
    <span
      data-badge={role}
      class="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-900 ring-1 ring-inset ring-indigo-300"
    >
      {label}
    </span>
  );
}
