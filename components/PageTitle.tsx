/** The document title of one page: `<title>{title} · Career Community</title>`, replacing `_app`'s. */
import { Head } from "@/lib/web/head.ts";

/** Sets the page's `<title>` to `title` followed by the site name; renders nothing in place. */
export function PageTitle({ title }: { title: string }) {
  return (
    <Head>
      <title>{`${title} · Career Community`}</title>
    </Head>
  );
}
