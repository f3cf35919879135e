/**
 * The admin area's frame: the admin navigation beside the page. For a signed-in non-admin it
 * renders the 403 notice instead of the page (`_middleware.ts` sets the status).
 */
import { AdminNav } from "../../components/AdminNav.tsx";
import { Forbidden } from "../../components/Forbidden.tsx";
import type { AppState } from "../../lib/platform/state.ts";
import type { AppProps } from "../../lib/web/types.ts";

export default function AdminLayout({ Component, state, url }: AppProps<AppState>) {
  if (state.user?.role !== "admin") return <Forbidden />;
  return (
    <div class="flex flex-col gap-6 md:flex-row">
      <AdminNav path={url.pathname} />
      <div class="min-w-0 flex-1">
        <Component />
      </div>
    </div>
  );
}
