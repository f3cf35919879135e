/**
 * `GET /api/me/export`: everything kept about the caller (`lib/account/export.ts`); its `apiDocs` below are its
 * description (docs/api.md, Data rights; docs/decisions.md, Data rights).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { EXPORT_SECTIONS, exportAccount, exportFileName } from "@/lib/account/export.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { z } from "zod";

/** Every request (it reads everything) falls under the per-person limit `export` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "export" };

export const apiDocs = describeRoute({
  section: "Data rights",
  GET: {
    summary: "Download everything kept about you",
    description: "A JSON attachment (`Content-Disposition: attachment`): `exportedAt`, then one member per kind " +
      `of record: ${EXPORT_SECTIONS.map((section) => `\`${section.name}\``).join(", ")}.`,
    access: ["session"],
    responses: {
      200: {
        description: "The export",
        schema: z.looseObject({ exportedAt: z.string().describe("ISO 8601") }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const data = await exportAccount(ctx.state.services.kv, ctx.state.user);
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${exportFileName(data.exportedAt)}"`,
      },
    });
  },
});
