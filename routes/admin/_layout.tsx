/**
 * The admin area's frame: the admin navigation beside the page. Only admins reach it:
 * `_middleware.ts` stops everyone else before any admin page runs.
 */
import { define } from "@/lib/platform/define.ts";
import { AdminNav } from "@/components/AdminNav.tsx";

export default define.layout(function AdminLayout({ Component, url }) {
  return (
    <div class="flex flex-col gap-6 md:flex-row">
      <AdminNav path={url.pathname} />
      <div class="min-w-0 flex-1">
        <Component />
      </div>
    </div>
  );
});
