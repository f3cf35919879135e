/**
 * Browser-safe: the Tailwind classes of form controls and buttons that components and islands write themselves (the
 * field components of `components/forms.tsx` use them too), so every control looks the same. `static/styles.css`
 * scans this folder for them.
 */

/** The base of a text input, select or textarea under its label; the border colour says whether it is invalid. */
export const CONTROL = "mt-1 block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm " +
  "focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40";

/** The style of a text input, select or textarea under its label, for controls an island writes itself. */
export const INPUT = `${CONTROL} border-slate-400`;

/**
 * The style of a compact control inside a list row or table cell (a row's status select, a position number): smaller
 * than `INPUT`, with the same border, focus ring and invalid state; the caller adds its width.
 */
export const ROW_INPUT = "rounded-md border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 " +
  "focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40 aria-[invalid=true]:border-red-700";

/** Classes of a form's primary button (Save, Add) that an island writes itself. */
export const PRIMARY_BUTTON = "rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 " +
  "disabled:opacity-70";

/** Classes of a secondary button (Cancel, Delete in a table row, paging). */
export const SECONDARY_BUTTON = "rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium " +
  "text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * The classes of a `<table>` whose rows stack below `lg` (`components/StackedTable.tsx`): each row a block, each cell a
 * line, the column headings for screen readers only; stacked, a long word may break anywhere.
 */
export const STACKED_TABLE = "max-lg:block max-lg:[&_tbody]:block max-lg:[&_tr]:block max-lg:[&_tr]:py-2 " +
  "max-lg:[&_th]:block max-lg:[&_td]:block max-lg:[&_th]:py-1 max-lg:[&_td]:py-1 max-lg:[&_thead]:sr-only " +
  "max-lg:[&_th]:[overflow-wrap:anywhere] max-lg:[&_td]:[overflow-wrap:anywhere]";

/**
 * The classes a bordered `<fieldset>` adds so its legend is drawn inside the box, as its first line, rather than across
 * its border, where a legend that wraps on a phone has the border drawn between its lines: the legend floats the full
 * width (in a grid, it spans the first row) and the next child starts below it.
 */
export const LEGEND_INSIDE = "[&>legend]:float-left [&>legend]:w-full [&>legend]:col-span-full [&>legend+*]:clear-left";
