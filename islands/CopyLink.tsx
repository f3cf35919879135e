/**
 * "Copy link" for a page's address (a certificate's): a plain link to `url` without JavaScript (open it, then copy it
 * from the address bar); with JavaScript a click copies `url` to the clipboard and says so. The page passes its words.
 */
import { useState } from "preact/hooks";

/** Props: the absolute address, the button's label and the words said once copied (the page's language). */
export default function CopyLink({ url, label, copied }: { url: string; label: string; copied: string }) {
  const [done, setDone] = useState(false);
  return (
    <span class="inline-flex items-center gap-2">
      <a
        href={url}
        onClick={async (event) => {
          if (!navigator.clipboard) return;
          event.preventDefault();
          await navigator.clipboard.writeText(url);
          setDone(true);
        }}
        class="rounded-md border border-indigo-700 px-4 py-2 font-medium text-indigo-800 hover:bg-indigo-50"
      >
        {label}
      </a>
      <span role="status" class="text-sm text-green-800">{done ? copied : ""}</span>
    </span>
  );
}
