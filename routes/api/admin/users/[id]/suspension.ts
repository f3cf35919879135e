/**
 * `POST` and `DELETE /api/admin/users/{id}/suspension`: an admin suspends an account, and lifts the suspension; its
 * `apiDocs` below are its description (docs/api.md, Admin; docs/decisions.md, Admin, "Suspension").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson, validate } from "@/lib/http/json.ts";
import { liftSuspension, runSuspension, suspendUser, suspensionSchema } from "@/lib/users/suspension.ts";
import { BATCH, commentRemovalsOf } from "@/lib/moderation/comment_purges.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { CommentRemovalSchema, SuspendedUserSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

const changed = {
  description: "The user with their suspension (null once lifted)",
  schema: z.strictObject({ user: SuspendedUserSchema }),
};

const suspended = {
  description: "The user with their suspension, how many open listings of theirs were hidden now, and how far the " +
    "removal of their comments is",
  schema: z.strictObject({
    user: SuspendedUserSchema,
    hiddenListings: z.number().int().min(0).describe(
      "Internships and opportunities rejected now (0 without the hide, or when `finishing` before the hide was done)",
    ),
    finishing: z.boolean().describe(
      "True when hiding or closing their listings, or removing their comments, was kept busy by other writes: the " +
        "suspension stands, and jobs finish the rest within minutes",
    ),
    commentRemoval: CommentRemovalSchema.nullable().describe(
      "Their comments at the suspension and how many were removed now (null without `removeComments`); a job " +
        "removes the rest, and `GET /api/admin/users` shows how far it is",
    ),
  }),
};

export const apiDocs = describeRoute({
  section: "Admin",
  POST: {
    summary: "Suspend an account",
    description: "Ends every session of the person at once; until lifted they cannot sign in (403 " +
      "`ACCOUNT_SUSPENDED`) and no session or key of theirs works. With `hideListings` (the default) each open " +
      "internship and opportunity of theirs is rejected by moderation with a note that the poster was suspended " +
      "(logged as `moderation.decide` each; a job finishes a hide that stopped midway), those internships that take " +
      "applications here then close (only an admin moves a rejected listing's applications, not even its verified " +
      "organization's other managers), so their applicants hear back 15 days later, and lifting the suspension neither lists them again nor reopens them. With `removeComments` (off by default) every comment they wrote is removed as an " +
      "admin removes one (one with replies stays as a placeholder; logged as `comment.delete` each): the first " +
      `${BATCH} at once, the rest by a job within minutes; lifting the suspension stops it and brings none back. ` +
      "Without the hide, their open internships taking applications here close all the same, unless another manager " +
      "of their verified organization answers them; lifting the suspension reopens none. " +
      "The open internships taking applications here, linked to a verified organization they manage, that nobody else " +
      "answers now (their owner gone, made a user or suspended, no other manager not suspended) close, a job finishing " +
      "what the request left; lifting the suspension reopens none. " +
      "The suspension stands even when hiding, closing or removing was kept busy by other writes (`finishing`): " +
      "jobs finish those within minutes. The rest of what they posted stays. Never one's own account " +
      "nor an admin's (change their role first). The person is told by e-mail, with the reason and without the " +
      "admin's name; the audit log records `user.suspend`.",
    access: ["admin"],
    body: suspensionSchema,
    responses: {
      200: suspended,
      400:
        "A missing, empty or too long `reason`, or a `hideListings` or `removeComments` not a boolean (with `fields`)",
      403: "You cannot suspend your own account (or a write from another origin)",
      404: "User not found",
      409: "An admin cannot be suspended (change their role first), or the account is already suspended",
    },
  },
  DELETE: {
    summary: "Lift a suspension",
    description: "The person may sign in again and is told by e-mail; the audit log records `user.unsuspend`. " +
      "Listings hidden with the suspension stay hidden (an admin approves each in moderation); a removal of their " +
      "comments still under way stops, and those removed stay removed.",
    access: ["admin"],
    responses: { 200: changed, 404: "User not found", 409: "This account is not suspended" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { reason, hideListings, removeComments } = validate(suspensionSchema, await readJson(req));
    const { services } = ctx.state;
    const { user, mailId } = await suspendUser(services.kv, {
      actorId: ctx.state.user.id,
      targetId: ctx.params.id,
      reason,
      hideListings,
      removeComments,
      appUrl: services.config.appUrl,
    });
    deliverSoon(services, mailId);
    const { hiddenListings, finishing } = await runSuspension(services.kv, {
      userId: user.id,
      hideListings,
      removeComments,
    });
    const done = { user, hiddenListings: hiddenListings ?? 0, finishing };
    if (!removeComments) return Response.json({ ...done, commentRemoval: null });
    const commentRemoval = (await commentRemovalsOf(services.kv, [user.id])).get(user.id) ?? null;
    return Response.json({ ...done, commentRemoval });
  },
  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    const { services } = ctx.state;
    const { user, mailId } = await liftSuspension(services.kv, {
      actorId: ctx.state.user.id,
      targetId: ctx.params.id,
      appUrl: services.config.appUrl,
    });
    deliverSoon(services, mailId);
    return Response.json({ user });
  },
});
