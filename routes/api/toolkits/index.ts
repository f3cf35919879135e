/**
 * `GET` and `POST /api/toolkits`: the toolkit catalogue; its `apiDocs` below are its description (docs/api.md,
 * Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { assertSignedIn, assertVerifiedAdmin } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { createToolkit, listActiveToolkits, ToolkitCreateSchema, withOwnFilePaths } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ToolkitSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Toolkits",
  GET: {
    summary: "The active toolkits, newest first",
    description: "A bare array of toolkits, prices in rupees. `contentUrl` is null in the list (the paid " +
      "material's page reaches buyers and admins through `GET /api/toolkits/{id}`).",
    responses: { 200: { description: "The toolkits", schema: z.array(ToolkitSchema) } },
  },
  POST: {
    summary: "Create a toolkit (inactive)",
    description: "Answers the bare toolkit. An `originalPrice` below `price`: 400.",
    access: ["admin"],
    body: ToolkitCreateSchema,
    responses: { 201: { description: "The toolkit", schema: ToolkitSchema } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json(await listActiveToolkits(ctx.state.services.kv));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    assertVerifiedAdmin(ctx.state.user);
    const input = withOwnFilePaths(await readBody(req, ToolkitCreateSchema), ctx.state.services.config.appUrl);
    const audit = adminAudit(ctx.state, { action: "toolkit.create", targetKind: "toolkit" });
    const toolkit = await createToolkit(ctx.state.services.kv, { creator: ctx.state.user, input, audit });
    return Response.json(toolkit, { status: 201 });
  },
});
