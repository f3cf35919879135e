/**
 * `GET /api/push/key` (public) → `{publicKey}`, the VAPID public key a browser subscribes with (its
 * `applicationServerKey`), or 404 when push is off (docs/api.md, Push; docs/decisions.md, Push).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { PUSH_OFF } from "@/lib/push/subscriptions.ts";

export const apiDocs = describeRoute({
  section: "Push",
  GET: {
    summary: "The key to subscribe to push notifications with",
    description: "The VAPID public key (base64url), a browser's `applicationServerKey`.",
    responses: {
      200: { description: "The VAPID public key (base64url)", schema: z.strictObject({ publicKey: z.string() }) },
      404: `${PUSH_OFF} (push is off: no \`VAPID_*\` keys)`,
    },
  },
});

export const handler = define.handlers({
  GET(_req, ctx) {
    const { push } = ctx.state.services;
    if (!push) throw new NotFoundError(PUSH_OFF);
    return Response.json({ publicKey: push.publicKey });
  },
});
