/**
 * The service worker's version follows everything it precaches (docs/decisions.md, Installable and offline, "Service
 * worker"): a change to a built file, a precached static file or a module a precached page is rendered from (down to a
 * catalogue it imports) gives a new version; a change to anything else keeps it. Its caches are named by what they hold
 * depends on: a change of words renames the shell cache alone, so a phone keeps the pages it visited.
 */
import { builtFilesVersion, serviceWorkerVersion } from "@/lib/web/build.ts";
import { cacheNames } from "@/lib/offline/caches.ts";
import { assertEquals, assertNotEquals, assertRejects } from "@/tests/helpers/assert.ts";

const FILES: Record<string, string> = {
  "_build/assets/boot-AAAA.js": "export const boot = 1;\n",
  "_build/critical.json": '{"entries":[]}\n',
  "static/favicon.svg": "<svg></svg>\n",
  "static/unrelated.txt": "not precached\n",
  "routes/offline.tsx": 'import { Shell } from "@/components/Shell.tsx";\nexport default () => <Shell />;\n',
  "components/Shell.tsx":
    'import words from "../locales/en/layout.json" with { type: "json" };\nexport const Shell = () => <p>{words.offline}</p>;\n',
  "components/Other.tsx": "export const Other = () => <p>other</p>;\n",
  "locales/en/layout.json": '{"offline":"You are offline"}\n',
};

const PRECACHE = ["/offline?lang=en", "/favicon.svg", "/_build/assets/boot-AAAA.js"];

/** A temporary folder holding `FILES`; answers its path. */
async function projectTree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "sw-version-" });
  for (const [file, text] of Object.entries(FILES)) {
    await Deno.mkdir(`${root}/${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${file}`, text);
  }
  return root;
}

Deno.test("the service worker's version changes with any file it precaches, and only then", async () => {
  const root = await projectTree();
  try {
    const version = async () =>
      serviceWorkerVersion({
        root,
        buildVersion: await builtFilesVersion({ root, outDir: "_build" }),
        precache: PRECACHE,
        staticDir: "static",
        pageModules: ["routes/offline.tsx"],
      });
    const first = await version();
    assertEquals(await version(), first, "the same files give the same version");
    /** The version with `file` changed, after which the file is as it was. */
    const changed = async (file: string) => {
      await Deno.writeTextFile(`${root}/${file}`, FILES[file].replace(/\n$/, " \n"));
      try {
        return await version();
      } finally {
        await Deno.writeTextFile(`${root}/${file}`, FILES[file]);
      }
    };
    for (const file of ["static/favicon.svg", "_build/assets/boot-AAAA.js", "_build/critical.json"]) {
      assertNotEquals(await changed(file), first, `a precached file: ${file}`);
    }
    for (const file of ["routes/offline.tsx", "components/Shell.tsx", "locales/en/layout.json"]) {
      assertNotEquals(await changed(file), first, `what the offline page is rendered from: ${file}`);
    }
    for (const file of ["static/unrelated.txt", "components/Other.tsx"]) {
      assertEquals(await changed(file), first, `neither precached nor rendered into a precached page: ${file}`);
    }
    assertEquals(await version(), first);

    await assertRejects(
      () => serviceWorkerVersion({ root, buildVersion: "b", precache: PRECACHE, staticDir: "static", pageModules: [] }),
      Error,
      "Service worker precaches pages but names no modules: /offline?lang=en",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a catalogue-only change renames the shell cache and keeps the visited pages' and built files' caches", async () => {
  const root = await projectTree();
  try {
    const names = async () => {
      const buildVersion = await builtFilesVersion({ root, outDir: "_build" });
      const options = { root, buildVersion, precache: PRECACHE, staticDir: "static" };
      return cacheNames({
        version: await serviceWorkerVersion({ ...options, pageModules: ["routes/offline.tsx"] }),
        buildVersion,
      });
    };
    const before = await names();
    await Deno.writeTextFile(`${root}/locales/en/layout.json`, '{"offline":"You are offline now"}\n');
    const reworded = await names();
    assertNotEquals(reworded.shell, before.shell, "the offline page's words are new: a new shell");
    assertEquals([reworded.pages, reworded.assets, reworded.kept], [before.pages, before.assets, "kept"]);

    await Deno.writeTextFile(`${root}/_build/assets/boot-AAAA.js`, "export const boot = 2;\n");
    const rebuilt = await names();
    assertNotEquals(rebuilt.shell, reworded.shell);
    assertNotEquals(rebuilt.pages, reworded.pages, "pages naming the old built files go with them");
    assertNotEquals(rebuilt.assets, reworded.assets);
    assertEquals(rebuilt.kept, "kept");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
