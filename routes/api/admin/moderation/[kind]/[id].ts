/**
 * `POST /api/admin/moderation/{kind}/{id}` (admins) `{decision: "approve" | "reject", note?, updatedAt?}` → `{item}`: approve lists
 * the listing (`clear`), reject keeps it out for good (`rejected`); the owner is notified (`listing_moderated`, with
 * the note). `kind` `internships` or `opportunities`, else 404; an unknown listing 404. docs/api.md, Trust;
 * docs/decisions.md, Trust, "Moderation".
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { decideListing, ModerationDecisionSchema } from "@/lib/moderation/admin.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { ModerationItemSchema } from "@/lib/openapi/resources.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  POST: {
    summary: "Approve or reject a held listing",
    description:
      "`{kind}` is `internships` or `opportunities`. `approve` lists the listing (`clear`), `reject` keeps " +
      "it out for good (`rejected`); the owner gets a `listing_moderated` notification with the note. A reject " +
      "resolves the listing's open reports as `removed` by `moderation`, each reporter told; an approval of a " +
      "rejected listing reopens the reports its reject resolved so. Send the " +
      "listing's `updatedAt` you read with it: when the listing changed since (an edit, or another admin's " +
      "decision: a decision sets `updatedAt`), nothing is decided and the answer " +
      "is 409 (without it the current text is decided on, for older clients).",
    access: ["admin"],
    body: ModerationDecisionSchema,
    responses: {
      200: { description: "The listing after the decision", schema: z.strictObject({ item: ModerationItemSchema }) },
      404: "An unknown kind (Not found) or listing (Internship not found, Opportunity not found)",
      409: REFUSALS.listingChanged,
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const body = await readBody(req, ModerationDecisionSchema);
    const item = await decideListing(ctx.state.services, {
      kind: ctx.params.kind,
      id: ctx.params.id,
      admin: ctx.state.user,
      body,
    });
    return Response.json({ item });
  },
});
