/**
 * The web layer on Hono: a fixture manifest of inline route modules (plus the fixture islands)
 * registered on a fresh app, checked through `app.request`: pages with `_app` and layouts,
 * handlers, `ctx.render`, middleware, params, 405, HEAD, `_404`, `_500`, assets and islands.
 */
import { Hono } from "hono";
import { type ComponentType, h } from "preact";
import { signal } from "@preact/signals";
import { fromHonoMiddleware, registerRoutes, type WebOptions } from "@/lib/web/app.ts";
import { Head } from "@/lib/web/head.ts";
import { type Assets, type BuildManifest, loadAssets } from "@/lib/web/assets.ts";
import { indexStylesheet } from "@/lib/web/css_index.ts";
import type {
  AppProps,
  ErrorPageProps,
  Handlers,
  Manifest,
  MiddlewareHandler,
  MiddlewareHandlerContext,
  PageProps,
  RouteModule,
  State,
} from "@/lib/web/types.ts";
import * as CounterModule from "@/tests/fixtures/web/islands/Counter.tsx";
import * as DisplayModule from "@/tests/fixtures/web/islands/Display.tsx";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { assertHtml } from "@/tests/fixtures/html.ts";

const Counter = CounterModule.default;
const Display = DisplayModule.default;

type Env = { Variables: { state: State } };
interface TrailState extends State {
  trail: string[];
  user?: string;
}

const BUILD_MANIFEST: BuildManifest & { islands: { Counter: string; Display: string } } = {
  buildId: "test",
  boot: "/_build/boot-AAAA1111.js",
  islands: { Counter: "/_build/island-Counter-BBBB2222.js", Display: "/_build/island-Display-CCCC3333.js" },
  css: ["/_build/styles-123456.css"],
};

/** Writes a small build and static folder, loads them, and removes the files again. */
async function fixtureAssets(manifest: BuildManifest = BUILD_MANIFEST): Promise<Assets> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/build/assets`, { recursive: true });
    await Deno.mkdir(`${dir}/static/img`, { recursive: true });
    await Deno.writeTextFile(`${dir}/build/manifest.json`, JSON.stringify(manifest));
    await Deno.writeTextFile(`${dir}/build/assets/boot-AAAA1111.js`, "console.log('boot');");
    await Deno.writeTextFile(`${dir}/build/assets/styles-123456.css`, "p{color:red}");
    await Deno.writeTextFile(`${dir}/static/favicon.svg`, "<svg xmlns='http://www.w3.org/2000/svg'/>");
    await Deno.writeFile(`${dir}/static/img/logo.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    return await loadAssets(`${dir}/build`, `${dir}/static`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const trailOf = (state: unknown) => (state as TrailState).trail;
const layout = (id: string): RouteModule => ({
  default: ({ Component }: AppProps) => (
    <div id={id}>
      <Component />
    </div>
  ),
});
const page = (text: string): RouteModule => ({ default: () => <p>{text}</p> });
const middleware = (name: string): MiddlewareHandler => (_req, ctx) => {
  trailOf(ctx.state).push(name);
  return ctx.next();
};

class TeapotError extends Error {}

const ROUTES: Record<string, RouteModule> = {
  "./routes/_app.tsx": {
    default: ({ Component }: AppProps) => (
      <html lang="en">
        <head>
          <title>Fixture</title>
        </head>
        <body>
          <Component />
        </body>
      </html>
    ),
  },
  "./routes/_layout.tsx": layout("root-layout"),
  "./routes/_middleware.ts": {
    handler: (async (_req, ctx) => {
      trailOf(ctx.state).push("root");
      const res = await ctx.next();
      res.headers.set("x-trail", trailOf(ctx.state).join(","));
      return res;
    }) as MiddlewareHandler,
  },
  "./routes/_404.tsx": { default: ({ url }: PageProps) => <h1>Nothing at {url.pathname}</h1> },
  "./routes/_500.tsx": { default: ({ error }: ErrorPageProps) => <h1>Broke: {(error as Error).message}</h1> },
  "./routes/admin/_layout.tsx": layout("admin-layout"),
  "./routes/admin/users.tsx": page("Users"),
  "./routes/(marketing)/_layout.tsx": layout("marketing-layout"),
  "./routes/(marketing)/pricing.tsx": page("Pricing"),
  "./routes/items/new.tsx": page("New item"),
  "./routes/items/[id]/_layout.tsx": layout("item-layout"),
  "./routes/items/[id]/_middleware.ts": {
    handler: (async (_req, ctx) => {
      const res = await ctx.next();
      res.headers.set("x-item-id", ctx.params.id);
      return res;
    }) as MiddlewareHandler,
  },
  "./routes/items/[id]/index.tsx": {
    handler: { GET: (_req, ctx) => ctx.render({ id: ctx.params.id }) } as Handlers<{ id: string }>,
    default: ({ data, params }: PageProps<{ id: string }>) => <p>Item {data.id} of {params.id}</p>,
  },
  "./routes/created.tsx": {
    handler: {
      GET: (_req, ctx) => ctx.render({ name: "Asha" }, { status: 201, headers: { "x-extra": "yes" } }),
    } as Handlers<{ name: string }>,
    default: ({ data }: PageProps<{ name: string }>) => <p>Hello {data.name}</p>,
  },
  "./routes/files/[...path].ts": {
    handler: ((req, ctx) => Response.json({ method: req.method, path: ctx.params.path })) as Handlers["GET"],
  },
  "./routes/boom.tsx": {
    handler: {
      GET: () => {
        throw new Error("kaboom");
      },
      POST: () => {
        throw new TeapotError("short and stout");
      },
    },
  },
  "./routes/missing.tsx": { handler: { GET: (_req, ctx) => ctx.renderNotFound() } },
  "./routes/api/_middleware.ts": { handler: [middleware("api-a"), middleware("api-b")] },
  "./routes/api/echo.ts": {
    handler: ((req, ctx) => Response.json({ method: req.method, route: ctx.route })) as Handlers["GET"],
  },
  "./routes/api/items.ts": {
    handler: { GET: () => Response.json([]), POST: () => new Response(null, { status: 201 }) },
  },
  "./routes/api/head.ts": {
    handler: {
      GET: () => new Response("body of GET", { headers: { "x-handler": "GET" } }),
      HEAD: () => new Response(null, { headers: { "x-handler": "HEAD" } }),
    },
  },
  "./routes/api/trail.ts": {
    handler: {
      GET: (_req, ctx) => Response.json({ trail: ctx.state.trail, user: ctx.state.user }),
    } as Handlers<unknown, TrailState>,
  },
  "./routes/api/guarded/_middleware.ts": {
    handler: ((req, ctx) => {
      trailOf(ctx.state).push("guarded");
      if (req.headers.get("x-key") !== "ok") return Response.json({ error: "Unauthorized" }, { status: 401 });
      return ctx.next();
    }) as MiddlewareHandler,
  },
  "./routes/api/guarded/secret.ts": { handler: { GET: (_req, ctx) => Response.json({ trail: trailOf(ctx.state) }) } },
  "./routes/plain.tsx": page("No islands here"),
  "./routes/islands.tsx": {
    default: () => {
      const count = signal(5);
      return (
        <section>
          <Counter count={count} label="Add one" />
          <Display count={count} />
        </section>
      );
    },
  },
  "./routes/titled.tsx": {
    default: () => (
      <>
        <Head>
          <title>Page title</title>
          <meta name="description" content="About this page" />
        </Head>
        <svg aria-hidden="true">
          <title>Icon title</title>
        </svg>
      </>
    ),
  },
  "./routes/dollars.tsx": { default: () => <Counter count={signal(1)} label="$& $' $` $$ </script>" /> },
  "./routes/island-text-child.tsx": {
    default: () => h(Display as ComponentType<Record<string, unknown>>, { count: signal(2) }, "a note"),
  },
  "./routes/island-jsx-child.tsx": {
    default: () => h(Display as ComponentType<Record<string, unknown>>, { count: signal(2) }, <em>rich</em>),
  },
  "./routes/island-function.tsx": {
    default: () => <Counter count={signal(1)} label={(() => "x") as unknown as string} />,
  },
};

const ISLANDS = { "./islands/Counter.tsx": CounterModule, "./islands/Display.tsx": DisplayModule };

/** A Hono app whose requests start with a filled state, as the platform app's do. */
async function createApp(
  options: Partial<WebOptions> = {},
  routes: Record<string, RouteModule> = ROUTES,
): Promise<Hono<Env>> {
  const app = new Hono<Env>();
  const initialState = () => ({ trail: [], user: "set-before-routes" }) satisfies TrailState;
  const manifest: Manifest = { routes, islands: ISLANDS, baseUrl: import.meta.url };
  registerRoutes(app, manifest, { assets: await fixtureAssets(), initialState, ...options });
  return app;
}

/** The island markers and the props envelope of a page. */
function islandData(html: string) {
  const json = html.match(/<script type="application\/json" id="__islands">(.*?)<\/script>/)?.[1];
  assert(json, "the page has the props script");
  return JSON.parse(json);
}

// --- Pages, _app and layouts

Deno.test("a page is wrapped in _app, the root layout, then its folder's layout", async () => {
  const app = await createApp();
  const res = await app.request("/admin/users");
  assertHtml(res);
  const html = await res.text();
  assert(html.startsWith('<!DOCTYPE html><html lang="en"><head><title>Fixture</title>'), html);
  assert(html.includes('<body><div id="root-layout"><div id="admin-layout"><p>Users</p></div></div>'), html);
});

Deno.test("<Head> adds to the document head, and its title replaces _app's title only", async () => {
  const app = await createApp();
  const html = await (await app.request("/titled")).text();
  const [head, body] = html.split("</head>");
  assert(head.includes("<title>Page title</title>") && !head.includes("Fixture"), head);
  assert(head.includes('<meta name="description" content="About this page"/>'), head);
  assert(body.includes("<title>Icon title</title>"), body);
  assert(!body.includes("Page title"), body);
});

Deno.test("a layout does not wrap pages outside its folder", async () => {
  const app = await createApp();
  const html = await (await app.request("/items/new")).text();
  assert(html.includes('<div id="root-layout"><p>New item</p></div>'), html);
  assert(!html.includes("item-layout") && !html.includes("admin-layout") && !html.includes("marketing-layout"));
});

Deno.test("a (group) layout wraps only that group's pages", async () => {
  const app = await createApp();
  const pricing = await (await app.request("/pricing")).text();
  assert(pricing.includes('<div id="root-layout"><div id="marketing-layout"><p>Pricing</p></div></div>'), pricing);
  const users = await (await app.request("/admin/users")).text();
  assert(!users.includes("marketing-layout"), users);
});

Deno.test("a layout in a [param] folder wraps the pages under it", async () => {
  const app = await createApp();
  const res = await app.request("/items/42");
  assertEquals(res.status, 200);
  const html = await res.text();
  assert(html.includes('<div id="root-layout"><div id="item-layout"><p>Item 42 of 42</p></div></div>'), html);
});

Deno.test("without _app the page is wrapped in a minimal document", async () => {
  const app = await createApp({}, { "./routes/index.tsx": page("Bare") });
  const html = await (await app.request("/")).text();
  assertMatch(html, /^<!DOCTYPE html><html><head><link rel="stylesheet" href="\/_build\/styles-123456\.css"><\/head>/);
  assert(html.includes("<body><p>Bare</p></body></html>"), html);
});

Deno.test("an _app without <head> still gets the stylesheet links", async () => {
  const app = await createApp({}, {
    "./routes/_app.tsx": {
      default: ({ Component }: AppProps) => (
        <html lang="en">
          <body>
            <Component />
          </body>
        </html>
      ),
    },
    "./routes/index.tsx": page("Headless"),
  });
  const html = await (await app.request("/")).text();
  assert(
    html.startsWith(
      '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/_build/styles-123456.css"></head>',
    ),
    html,
  );
});

// --- Handlers and ctx.render

Deno.test("ctx.render renders the page with data, status and extra headers", async () => {
  const app = await createApp();
  const res = await app.request("/created");
  assertHtml(res, 201);
  assertEquals(res.headers.get("x-extra"), "yes");
  assert((await res.text()).includes("<p>Hello Asha</p>"));
});

Deno.test("a handler function answers every method, HEAD included", async () => {
  const app = await createApp();
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
    const res = await app.request("/api/echo", { method });
    assertEquals(res.status, 200, method);
    assertEquals(await res.json(), { method, route: "/api/echo" });
  }
  const head = await app.request("/api/echo", { method: "HEAD" });
  assertEquals(head.status, 200);
  assertEquals(await head.text(), "");
});

Deno.test("a handler object answers its methods", async () => {
  const app = await createApp();
  const get = await app.request("/api/items");
  assertEquals(get.status, 200);
  assertEquals(await get.json(), []);
  assertEquals((await app.request("/api/items", { method: "POST" })).status, 201);
});

Deno.test("a handler that calls ctx.render on a route without a page fails with 500", async () => {
  const app = await createApp({}, {
    "./routes/x.ts": { handler: { GET: (_req, ctx) => ctx.render() } },
  });
  const res = await app.request("/x");
  assertEquals(res.status, 500);
  await res.body?.cancel();
});

// --- Params

Deno.test("[param] values reach ctx.params, PageProps.params and folder middleware", async () => {
  const app = await createApp();
  const res = await app.request("/items/abc-9");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("x-item-id"), "abc-9");
  assert((await res.text()).includes("<p>Item abc-9 of abc-9</p>"));
});

Deno.test("a static route wins over a [param] route at the same place", async () => {
  const app = await createApp();
  const res = await app.request("/items/new");
  assert((await res.text()).includes("<p>New item</p>"));
});

Deno.test("[...catchAll] takes one or more segments, slashes included", async () => {
  const app = await createApp();
  const res = await app.request("/files/a/b/c.txt");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { method: "GET", path: "a/b/c.txt" });
  assertEquals(await (await app.request("/files/one")).json(), { method: "GET", path: "one" });
  const bare = await app.request("/files");
  assertEquals(bare.status, 404);
  await bare.body?.cancel();
});

// --- Middleware

Deno.test("middleware runs root first, then nested, in array order, sharing state", async () => {
  const app = await createApp();
  const res = await app.request("/api/trail");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { trail: ["root", "api-a", "api-b"], user: "set-before-routes" });
});

Deno.test("middleware can change the response after next()", async () => {
  const app = await createApp();
  const res = await app.request("/api/guarded/secret", { headers: { "x-key": "ok" } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("x-trail"), "root,api-a,api-b,guarded");
  assertEquals(await res.json(), { trail: ["root", "api-a", "api-b", "guarded"] });
});

Deno.test("middleware can answer without calling next(), and outer middleware still sees it", async () => {
  const app = await createApp();
  const res = await app.request("/api/guarded/secret");
  assertEquals(res.status, 401);
  assertEquals(res.headers.get("x-trail"), "root,api-a,api-b,guarded");
  assertEquals(await res.json(), { error: "Unauthorized" });
});

Deno.test("a route reached by a percent-escaped path still runs its folder's middleware", async () => {
  const app = await createApp();
  // The router decodes `%67` to `g`: the folder's guard must run for the route it matched.
  for (const path of ["/api/%67uarded/secret", "/%61pi/guarded/secret", "/api/guarded/%73ecret"]) {
    const res = await app.request(path);
    assertEquals(res.status, 401, path);
    assertEquals(res.headers.get("x-trail"), "root,api-a,api-b,guarded", path);
    assertEquals(await res.json(), { error: "Unauthorized" });
  }
});

Deno.test("middleware does not run for paths outside its folder", async () => {
  const app = await createApp();
  const res = await app.request("/admin/users");
  assertEquals(res.headers.get("x-trail"), "root");
  await res.body?.cancel();
});

Deno.test("middleware runs for unknown paths under its folder, before the 404", async () => {
  const app = await createApp();
  const res = await app.request("/api/guarded/nothing-here");
  assertEquals(res.status, 401);
  await res.body?.cancel();
});

// --- 405, HEAD

Deno.test("an unhandled method on a known path is 405 with Allow listing HEAD with GET", async () => {
  const app = await createApp();
  const res = await app.request("/api/items", { method: "PUT" });
  assertEquals(res.status, 405);
  assertEquals(res.headers.get("allow"), "GET, HEAD, POST");
  await res.body?.cancel();
  const pageOnly = await app.request("/admin/users", { method: "POST" });
  assertEquals(pageOnly.status, 405);
  assertEquals(pageOnly.headers.get("allow"), "GET, HEAD");
  await pageOnly.body?.cancel();
});

Deno.test("a route without GET answers HEAD with 405", async () => {
  const app = await createApp({}, { "./routes/form.ts": { handler: { POST: () => new Response("ok") } } });
  const res = await app.request("/form", { method: "HEAD" });
  assertEquals(res.status, 405);
  assertEquals(res.headers.get("allow"), "POST");
});

Deno.test("the methodNotAllowed option shapes the 405", async () => {
  const app = await createApp({
    methodNotAllowed: (_req, allow) => Response.json({ error: "nope", allow }, { status: 405 }),
  });
  const res = await app.request("/api/items", { method: "DELETE" });
  assertEquals(res.status, 405);
  assertEquals(await res.json(), { error: "nope", allow: ["GET", "HEAD", "POST"] });
});

Deno.test("HEAD of a page answers like GET without a body", async () => {
  const app = await createApp();
  const res = await app.request("/admin/users", { method: "HEAD" });
  assertHtml(res);
  assertEquals(await res.text(), "");
});

Deno.test("HEAD runs the HEAD handler when there is one", async () => {
  const app = await createApp();
  const head = await app.request("/api/head", { method: "HEAD" });
  assertEquals(head.headers.get("x-handler"), "HEAD");
  assertEquals(await head.text(), "");
  const get = await app.request("/api/head");
  assertEquals(get.headers.get("x-handler"), "GET");
  assertEquals(await get.text(), "body of GET");
});

// --- _404 and _500

Deno.test("an unknown path renders _404 inside _app and the root layout, through middleware", async () => {
  const app = await createApp();
  const res = await app.request("/no/such/page");
  assertHtml(res, 404);
  assertEquals(res.headers.get("x-trail"), "root");
  const html = await res.text();
  assert(html.includes('<html lang="en">'), html);
  assert(html.includes('<div id="root-layout"><h1>Nothing at /no/such/page</h1></div>'), html);
});

Deno.test("ctx.renderNotFound renders _404 with status 404", async () => {
  const app = await createApp();
  const res = await app.request("/missing");
  assertEquals(res.status, 404);
  assert((await res.text()).includes("<h1>Nothing at /missing</h1>"));
});

Deno.test("without _404 an unknown path is a plain 404", async () => {
  const app = await createApp({}, { "./routes/index.tsx": page("Home") });
  const res = await app.request("/nope");
  assertEquals(res.status, 404);
  assertEquals(await res.text(), "Not found");
});

Deno.test("a thrown error renders _500 with the error, through middleware", async () => {
  const app = await createApp();
  const res = await app.request("/boom");
  assertHtml(res, 500);
  assertEquals(res.headers.get("x-trail"), "root");
  const html = await res.text();
  assert(html.includes('<div id="root-layout"><h1>Broke: kaboom</h1></div>'), html);
});

Deno.test("without _500 a thrown error is a plain 500", async () => {
  const app = await createApp({}, {
    "./routes/index.ts": {
      handler: () => {
        throw new Error("x");
      },
    },
  });
  const res = await app.request("/");
  assertEquals(res.status, 500);
  assertEquals(await res.text(), "Internal server error");
});

Deno.test("an error a handler rejects with, later, is answered as a thrown one is", async () => {
  const app = await createApp({}, {
    "./routes/index.ts": {
      handler: async () => {
        await Promise.resolve();
        throw new Error("later");
      },
    },
  });
  const res = await app.request("/");
  assertEquals(res.status, 500);
  assertEquals(await res.text(), "Internal server error");
});

Deno.test("onError maps errors and can fall back to the _500 page, with the request's state", async () => {
  const seen: { error: unknown; trail: string[] }[] = [];
  const app = await createApp({
    onError(error, { state, pages }) {
      seen.push({ error, trail: [...trailOf(state)] });
      return error instanceof TeapotError
        ? Response.json({ error: error.message }, { status: 418 })
        : pages.renderErrorPage();
    },
  });
  const teapot = await app.request("/boom", { method: "POST" });
  assertEquals(teapot.status, 418);
  assertEquals(await teapot.json(), { error: "short and stout" });
  const other = await app.request("/boom");
  assertEquals(other.status, 500);
  assert((await other.text()).includes("Broke: kaboom"));
  assertEquals(seen.map((s) => s.trail), [["root"], ["root"]]);
});

Deno.test("onError can render any component inside _app, without the failed route's layouts", async () => {
  const app = await createApp({
    onError: (_error, { pages }) => pages.render(() => <p>No entry</p>, 403),
  });
  const res = await app.request("/boom");
  assertHtml(res, 403);
  const html = await res.text();
  assert(html.includes("<body><p>No entry</p></body>"), html);
  assert(!html.includes("root-layout"), html);
});

// --- Route options

/** Root middleware that records each request it wraps and stamps the status it saw on the response. */
function stampingMiddleware(seen: string[]): RouteModule {
  return {
    handler: async (req: Request, ctx: MiddlewareHandlerContext) => {
      seen.push(`${req.method} ${new URL(req.url).pathname}`);
      const res = await ctx.next();
      res.headers.set("x-stamp", String(res.status));
      return res;
    },
  };
}

Deno.test("root middleware wraps every answer but assets once: a route, a 405, a 404, a thrown error's page", async () => {
  const seen: string[] = [];
  const app = await createApp({}, { ...ROUTES, "./routes/_middleware.ts": stampingMiddleware(seen) });
  const cases = [
    ["GET", "/api/items", 200],
    ["PUT", "/api/items", 405],
    ["GET", "/no/such/page", 404],
    ["GET", "/boom", 500],
  ] as const;
  for (const [method, path, status] of cases) {
    const res = await app.request(path, { method });
    assertEquals(res.status, status, `${method} ${path}`);
    assertEquals(res.headers.get("x-stamp"), String(status), `${method} ${path}`);
    await res.body?.cancel();
  }
  const asset = await app.request("/favicon.svg");
  assertEquals(asset.status, 200);
  assertEquals(asset.headers.get("x-stamp"), null, "assets are answered before any middleware");
  await asset.body?.cancel();
  assertEquals(seen, cases.map(([method, path]) => `${method} ${path}`));
});

Deno.test("outer middleware gets onError's answer when inner middleware throws", async () => {
  const seen: string[] = [];
  const app = await createApp({
    onError: (error) => new Response(String(error instanceof TeapotError), { status: 418 }),
  }, {
    "./routes/_middleware.ts": stampingMiddleware(seen),
    "./routes/api/_middleware.ts": {
      handler: () => {
        throw new TeapotError("short and stout");
      },
    },
    "./routes/api/items.ts": { handler: { GET: () => Response.json([]) } },
  });
  const res = await app.request("/api/items");
  assertEquals(res.status, 418);
  assertEquals(res.headers.get("x-stamp"), "418");
  assertEquals(await res.text(), "true");
  assertEquals(seen, ["GET /api/items"]);
});

Deno.test("routeOptions are read once at registration and reach ctx.routeOptions and ctx.route in middleware", async () => {
  const read: { exported: unknown; route: string }[] = [];
  const app = await createApp({
    routeOptions(exported, route) {
      read.push({ exported, route });
      return { stop: (exported as { stop?: boolean } | undefined)?.stop === true };
    },
  }, {
    "./routes/_middleware.ts": {
      handler: (req: Request, ctx: MiddlewareHandlerContext) =>
        req.method === "POST" && (ctx.routeOptions as { stop: boolean }).stop
          ? Response.json({ stopped: ctx.route }, { status: 409 })
          : ctx.next(),
    },
    "./routes/open.ts": { handler: { POST: () => new Response("ran") } },
    "./routes/closed/[id].ts": {
      routeOptions: { stop: true },
      handler: { GET: () => new Response("read"), POST: () => new Response("ran") },
    },
  });
  assertEquals(read, [
    { exported: { stop: true }, route: "/closed/:id" },
    { exported: undefined, route: "/open" },
    { exported: undefined, route: "(not found)" },
  ]);
  assertEquals(await (await app.request("/open", { method: "POST" })).text(), "ran");
  const closed = await app.request("/closed/7", { method: "POST" });
  assertEquals(closed.status, 409);
  assertEquals(await closed.json(), { stopped: "/closed/:id" });
  assertEquals(await (await app.request("/closed/7")).text(), "read");
  assertEquals(read.length, 3, "read at registration, not per request");
});

Deno.test("fromHonoMiddleware runs Hono middleware in the chain: it sees the response and may answer itself", async () => {
  const app = await createApp({}, {
    "./routes/_middleware.ts": {
      handler: [
        fromHonoMiddleware(async (c, next) => {
          await next();
          c.res.headers.set("x-hono", "after");
        }),
        fromHonoMiddleware(async (c, next) => {
          if (c.req.query("stop")) return c.text("stopped by hono", 403);
          await next();
        }),
      ],
    },
    "./routes/api/items.ts": { handler: { GET: () => Response.json([1]) } },
  });
  const ok = await app.request("/api/items");
  assertEquals(await ok.json(), [1]);
  assertEquals(ok.headers.get("x-hono"), "after");
  const stopped = await app.request("/api/items?stop=1");
  assertEquals(stopped.status, 403);
  assertEquals(await stopped.text(), "stopped by hono");
  assertEquals(stopped.headers.get("x-hono"), "after");
});

// --- Assets

Deno.test("a static file is served with its type, an ETag and revalidation", async () => {
  const app = await createApp();
  const res = await app.request("/favicon.svg");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "image/svg+xml");
  assertEquals(res.headers.get("cache-control"), "public, max-age=0, must-revalidate");
  assertMatch(res.headers.get("etag") ?? "", /^"[0-9a-f]{20}"$/);
  assertEquals(await res.text(), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  const nested = await app.request("/img/logo.png");
  assertEquals(nested.headers.get("content-type"), "image/png");
  assertEquals(new Uint8Array(await nested.arrayBuffer()), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
});

Deno.test("a matching If-None-Match answers 304 without a body", async () => {
  const app = await createApp();
  const etag = (await app.request("/favicon.svg", { method: "HEAD" })).headers.get("etag")!;
  for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const res = await app.request("/favicon.svg", { headers: { "if-none-match": ifNoneMatch } });
    assertEquals(res.status, 304, ifNoneMatch);
    assertEquals(res.headers.get("etag"), etag);
    assertEquals(await res.text(), "");
  }
  const changed = await app.request("/favicon.svg", { headers: { "if-none-match": '"stale"' } });
  assertEquals(changed.status, 200);
  await changed.body?.cancel();
});

Deno.test("built files under /_build/ are cached as immutable", async () => {
  const app = await createApp();
  const res = await app.request("/_build/boot-AAAA1111.js");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/javascript; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assertEquals(await res.text(), "console.log('boot');");
  const css = await app.request("/_build/styles-123456.css", { method: "HEAD" });
  assertEquals(css.status, 200);
  assertEquals(css.headers.get("content-type"), "text/css; charset=utf-8");
  assertEquals(await css.text(), "");
});

Deno.test("the build manifest and unknown build files are not served", async () => {
  const app = await createApp();
  for (const path of ["/_build/manifest.json", "/_build/nothing.js", "/_build/../static/favicon.svg"]) {
    const res = await app.request(path);
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
});

Deno.test("assets answer GET and HEAD only", async () => {
  const app = await createApp();
  const res = await app.request("/favicon.svg", { method: "POST" });
  assertEquals(res.status, 404);
  await res.body?.cancel();
});

Deno.test("loadAssets without a build says to run the build", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const error = await loadAssets(`${dir}/build`, `${dir}/static`).catch((e) => e);
    assertMatch(String(error), /No build found .* run `deno task build`/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- Islands

Deno.test("a page without islands ships no script, only the stylesheet", async () => {
  const app = await createApp();
  const html = await (await app.request("/plain")).text();
  assert(html.includes('<link rel="stylesheet" href="/_build/styles-123456.css"></head>'), html);
  assert(!html.includes("<script"), html);
  assert(!html.includes("modulepreload"), html);
  assert(!html.includes("<!--island"), html);
});

Deno.test("with a critical CSS index the page's rules are inlined and no stylesheet is linked", async () => {
  const manifest = { ...BUILD_MANIFEST, criticalCss: "critical.json" };
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/build/assets`, { recursive: true });
  await Deno.writeTextFile(`${dir}/build/manifest.json`, JSON.stringify(manifest));
  await Deno.writeTextFile(
    `${dir}/build/critical.json`,
    JSON.stringify(indexStylesheet("p{margin:0}.used{color:red}.unused{color:blue}")),
  );
  const assets = await loadAssets(`${dir}/build`, `${dir}/static`);
  await Deno.remove(dir, { recursive: true });
  const app = await createApp({ assets }, {
    "./routes/index.tsx": { default: () => <p class="used">Styled at once</p> },
  });
  const html = await (await app.request("/")).text();
  assert(html.includes("<head><style>p{margin:0}.used{color:red}</style></head>"), html);
  assert(!html.includes("styles-123456.css"), "a stylesheet arriving later would restyle the whole page");
});

Deno.test("a page with islands has markers, the props JSON, modulepreload links and the boot module", async () => {
  const app = await createApp();
  const res = await app.request("/islands");
  assertEquals(res.status, 200);
  const html = await res.text();
  assertEquals(html.match(/<!--island:/g)?.length, 2, "the Display nested in Counter is not marked again");
  assertEquals(html.match(/<!--\/island-->/g)?.length, 2);
  assertMatch(
    html,
    /<section><!--island:Counter:0--><div class="counter p-4">.*<p class="display">.*<\/div><!--\/island-->/,
  );
  assertMatch(
    html,
    /<\/div><!--\/island--><!--island:Display:1--><p class="display">.*<\/p><!--\/island--><\/section>/,
  );
  assert(html.includes('<link rel="modulepreload" href="/_build/island-Counter-BBBB2222.js">'), html);
  assert(html.includes('<link rel="modulepreload" href="/_build/island-Display-CCCC3333.js">'), html);
  assert(html.includes('<script type="module" src="/_build/boot-AAAA1111.js"></script></body></html>'), html);
  assertEquals(html.match(/<script/g)?.length, 2, "the props JSON and the boot module, nothing else");
  assertEquals(islandData(html), {
    modules: { Counter: BUILD_MANIFEST.islands.Counter, Display: BUILD_MANIFEST.islands.Display },
    props: { v: [{ count: { $: "sig", v: 0 }, label: "Add one" }, { count: { $: "sig", v: 0 } }], signals: [5] },
  });
});

Deno.test("island props with replacement patterns and </script> arrive unchanged", async () => {
  const app = await createApp();
  const html = await (await app.request("/dollars")).text();
  assertEquals(islandData(html).props.v[0].label, "$& $' $` $$ </script>");
  assertEquals(html.match(/<\/script>/g)?.length, 2);
});

Deno.test("a function prop of an island fails the page with an error naming the prop", async () => {
  const errors: unknown[] = [];
  const app = await createApp({
    onError(error, { pages }) {
      errors.push(error);
      return pages.renderErrorPage();
    },
  });
  const res = await app.request("/island-function");
  assertEquals(res.status, 500);
  await res.body?.cancel();
  assertMatch(String(errors[0]), /TypeError: Cannot serialize a function at props\[0\]\.label/);
});

Deno.test("an island missing from the build fails the page with a hint to build", async () => {
  const errors: unknown[] = [];
  const app = await createApp({
    assets: await fixtureAssets({ ...BUILD_MANIFEST, islands: { Counter: BUILD_MANIFEST.islands.Counter } }),
    onError: (error) => {
      errors.push(error);
      return new Response(null, { status: 500 });
    },
  });
  const res = await app.request("/islands");
  assertEquals(res.status, 500);
  assertMatch(String(errors[0]), /Island "Display" is not in the build: run `deno task build`/);
});

Deno.test("text children of an island are sent as the children prop", async () => {
  const app = await createApp();
  const res = await app.request("/island-text-child");
  assertEquals(res.status, 200);
  assertEquals(islandData(await res.text()).props.v, [{ count: { $: "sig", v: 0 }, children: "a note" }]);
});

Deno.test("JSX children of an island fail the page with an error naming the prop", async () => {
  const errors: unknown[] = [];
  const app = await createApp({
    onError(error, { pages }) {
      errors.push(error);
      return pages.renderErrorPage();
    },
  });
  const res = await app.request("/island-jsx-child");
  assertEquals(res.status, 500);
  await res.body?.cancel();
  assertMatch(String(errors[0]), /TypeError: Cannot serialize a JSX element at props\[0\]\.children/);
});
