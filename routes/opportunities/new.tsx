/**
 * `/opportunities/new`: the submit form for signed-in users (guests are sent to sign in and
 * back). A `user` is told that an admin reviews the submission; members and admins publish at
 * once (`publishesAtOnce` of `lib/opportunities/policy.ts`).
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import OpportunityForm from "@/islands/OpportunityForm.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { publishesAtOnce } from "@/lib/opportunities/policy.ts";

export const handler = define.handlers<{ reviewed: boolean }>({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render({ reviewed: !publishesAtOnce(ctx.state.user) });
  },
});

export default define.page<{ reviewed: boolean }>(function NewOpportunityPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto w-full max-w-2xl">
      <PageHead title="Submit an opportunity" />
      <a href="/opportunities" class="text-sm text-indigo-700 underline">← All opportunities</a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">Submit an opportunity</h1>
      <p class="mt-2 text-slate-700">Share a hackathon, grant, competition or ideathon with other students.</p>
      <div class="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <OpportunityForm reviewed={data.reviewed} />
      </div>
    </section>
  );
});
