/**
 * `POST /api/me/push-subscriptions` `{endpoint, keys: {p256dh, auth}}` → 201 `{subscription: {endpoint, createdAt}}`
 * and `DELETE /api/me/push-subscriptions` `{endpoint}` → `{success: true}` (session): the phones and browsers that show
 * the person's notifications, at most 10, on the push services of `PUSH_HOSTS` only (docs/api.md, Push;
 * docs/decisions.md, Push, "Subscriptions"). Push off: `POST` answers 404.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import { NotFoundError } from "@/lib/errors.ts";
import {
  addSubscription,
  BAD_KEYS,
  HOST_REFUSED,
  MAX_SUBSCRIPTIONS,
  PUSH_OFF,
  PushSubscriptionDeleteSchema,
  PushSubscriptionInputSchema,
  removeSubscriptions,
  subscriptionView,
  TOO_MANY_SUBSCRIPTIONS,
} from "@/lib/push/subscriptions.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `push` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "push" };

const SubscriptionSchema = z.strictObject({ endpoint: z.string(), createdAt: z.string() });

export const apiDocs = describeRoute({
  section: "Push",
  POST: {
    summary: "Subscribe this browser to push notifications",
    description: "The body is the browser's `PushSubscription.toJSON()`. Subscribing an endpoint again renews its " +
      "keys; an endpoint another account had moves to this one. A subscription belongs to the session that made or " +
      'last renewed it and ends with it: a password reset, or "sign out everywhere else" done in another session. ' +
      "The endpoint's host must be in `PUSH_HOSTS` (and `https:` unless loopback). " +
      `At most ${MAX_SUBSCRIPTIONS} per person.`,
    access: ["session"],
    body: PushSubscriptionInputSchema,
    responses: {
      201: { description: "Subscribed", schema: z.strictObject({ subscription: SubscriptionSchema }) },
      400: `Not a subscription (with \`fields\`); ${HOST_REFUSED}; ${BAD_KEYS}; ${TOO_MANY_SUBSCRIPTIONS}`,
      404: `${PUSH_OFF} (push is off)`,
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Unsubscribe a browser from push notifications",
    description: "An endpoint the person does not have is left alone, with the same answer.",
    access: ["session"],
    body: PushSubscriptionDeleteSchema,
    responses: {
      200: { description: "Gone", schema: SuccessSchema },
      400: "No endpoint",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, config, push } = ctx.state.services;
    if (!push) throw new NotFoundError(PUSH_OFF);
    const input = await readBody(req, PushSubscriptionInputSchema);
    const record = await addSubscription(kv, {
      userId: ctx.state.user.id,
      session: ctx.state.session,
      input,
      hosts: config.push.hosts,
    });
    return Response.json({ subscription: subscriptionView(record) }, { status: 201 });
  },

  async DELETE(req, ctx) {
    assertSignedIn(ctx.state);
    const { endpoint } = await readBody(req, PushSubscriptionDeleteSchema);
    await removeSubscriptions(ctx.state.services.kv, ctx.state.user.id, [endpoint]);
    return Response.json({ success: true });
  },
});
