/**
 * `GET` and `POST /api/admin/toolkits`: every toolkit, and a new one; its `apiDocs` below are its description
 * (docs/api.md, Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import {
  createToolkit,
  listToolkitsForAdmin,
  ToolkitCreateSchema,
  ToolkitSearchSchema,
  withOwnFilePaths,
} from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ToolkitSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "Every toolkit, inactive ones included",
    description: "Newest first; `search` matches every word of the title, in any case.",
    access: ["admin"],
    query: ToolkitSearchSchema,
    responses: { 200: { description: "The toolkits", schema: z.strictObject({ toolkits: z.array(ToolkitSchema) }) } },
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
    const { search } = validate(ToolkitSearchSchema, queryOf(ctx.url));
    return Response.json({ toolkits: await listToolkitsForAdmin(ctx.state.services.kv, search) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = withOwnFilePaths(await readBody(req, ToolkitCreateSchema), ctx.state.services.config.appUrl);
    const audit = adminAudit(ctx.state, { action: "toolkit.create", targetKind: "toolkit" });
    const toolkit = await createToolkit(ctx.state.services.kv, { creator: ctx.state.user, input, audit });
    return Response.json(toolkit, { status: 201 });
  },
});
