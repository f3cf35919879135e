/**
 * `GET /api/me/export` (session): everything kept about the caller as a JSON attachment
 * (`lib/account/export.ts`; docs/decisions.md, Data rights).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { exportAccount } from "@/lib/account/export.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Every request (it reads everything) falls under the per-person limit `export` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "export" };

export const apiDocs = describeRoute({
  GET: {
    summary: "Download everything kept about you",
    description: "A JSON attachment: user and profile, onboarding, sign-in methods, sessions (times only), " +
      "purchases, progress, and what you posted.",
    access: ["session"],
    responses: {
      200: { description: "The export (`Content-Disposition: attachment`)", mediaType: "application/json" },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const data = await exportAccount(ctx.state.services.kv, ctx.state.user);
    const day = data.exportedAt.slice(0, 10);
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="career-community-data-${day}.json"`,
      },
    });
  },
});
