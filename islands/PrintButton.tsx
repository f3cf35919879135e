/**
 * A button that opens the browser's print dialog (receipts and certificates print as one page). The page passes its
 * `label` in the page's language.
 */
export default function PrintButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => globalThis.print()}
      class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 print:hidden"
    >
      {label}
    </button>
  );
}
