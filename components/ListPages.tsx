/**
 * The pages of an admin list over `useAdminList`'s offset (`lib/browser/use_admin_list.ts`): "x–y of total" and
 * Previous/Next, buttons that load the page in place, or before hydration links to the pages the server renders (a step
 * with no page is its disabled button either way, so the navigation does not move as the page hydrates). Apart from
 * `components/AdminList.tsx`, so the admin lists without pages do not bundle it.
 */
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";
import { pageRange } from "@/lib/browser/pagination.ts";
import type { ListState } from "./AdminList.tsx";

/** Props of `ListPages`. */
export interface ListPagesProps {
  /** The navigation's name, e.g. "Pages of users". */
  label: string;
  list: ListState;
  pageSize: number;
  /** Rows on the page shown, and every match. */
  shown: number;
  total: number;
  hasMore: boolean;
  /**
   * The address of the page at an offset, given until hydrated: Previous and Next are then links to the pages the
   * server renders (`rel` `prev` and `next`; the disabled button where there is no such page, as once hydrated), so the
   * list pages without JavaScript.
   */
  hrefOf?: (offset: number) => string;
}

/**
 * "x–y of total" and Previous/Next for a list paged by `useAdminList`'s offset: buttons, disabled while a page loads
 * or where there is no such page, or links with `hrefOf`.
 */
export function ListPages({ label, list, pageSize, shown, total, hasMore, hrefOf }: ListPagesProps) {
  const { offset, setOffset, loading } = list;
  const t = useT();
  const step = (rel: "prev" | "next", to: number, none: boolean) => {
    const text = t(rel === "prev" ? "common.pagination.previous" : "common.pagination.next");
    return hrefOf && !none ? <a href={hrefOf(to)} rel={rel} class={SECONDARY_BUTTON}>{text}</a> : (
      <button
        type="button"
        class={SECONDARY_BUTTON}
        disabled={loading || none}
        onClick={() => setOffset(to)}
      >
        {text}
      </button>
    );
  };
  return (
    <nav aria-label={label} class="flex items-center justify-between gap-4">
      <p class="text-sm text-slate-700">
        {total > 0 && shown > 0 ? pageRange(t, offset, shown, total) : ""}
      </p>
      <div class="flex gap-2">
        {step("prev", Math.max(0, offset - pageSize), offset === 0)}
        {step("next", offset + pageSize, !hasMore)}
      </div>
    </nav>
  );
}
