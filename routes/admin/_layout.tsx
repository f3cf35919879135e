/**
 * The admin area's frame: the admin navigation beside the page. Only admins reach it:
 * `_middleware.ts` stops everyone else before any admin page runs.
 */
import { AdminNav } from "../../components/AdminNav.tsx";
import type { AppState } from "../../lib/platform/state.ts";
import type { AppProps } from "../../lib/web/types.ts";

export default function AdminLayout({ Component, url }: AppProps<AppState>) {
  return (
    <div class="flex flex-col gap-6 md:flex-row">
      <AdminNav path={url.pathname} />
      <div class="min-w-0 flex-1">
        <Component />
      </div>
    </div>
  );
}
