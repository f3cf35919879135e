/**
 * `/internships/mine` ("My internships"): the signed-in user's own live listings, active or
 * not, newest first, each with edit and delete (a soft delete after confirmation). Guests are
 * sent to sign in and back.
 */
import { listOwnInternships, signInRedirect } from "../../components/internships/access.ts";
import { InternshipCard } from "../../components/internships/InternshipCard.tsx";
import { PageTitle } from "../../components/PageTitle.tsx";
import InternshipDeleteButton from "../../islands/InternshipDeleteButton.tsx";
import type { InternshipView } from "../../lib/internships/internships.ts";
import type { AppState } from "../../lib/state.ts";
import type { Handlers, PageProps } from "../../lib/web/types.ts";

export const handler: Handlers<InternshipView[], AppState> = {
  async GET(_req, ctx) {
    const user = ctx.state.user;
    if (!user) return signInRedirect(ctx.url);
    return ctx.render(await listOwnInternships(ctx.state.services.kv, user));
  },
};

export default function MyInternshipsPage({ data: internships, state }: PageProps<InternshipView[], AppState>) {
  const canPost = state.user?.role === "member" || state.user?.role === "admin";
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-4xl">
      <PageTitle title="My internships" />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My internships</h1>
          <p class="mt-2 text-slate-700">
            {internships.length === 0
              ? "You have not posted any internships yet."
              : `You have ${internships.length} ${internships.length === 1 ? "listing" : "listings"}.`}
          </p>
        </div>
        {canPost && (
          <a
            href="/internships/new"
            class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
          >
            Post an internship
          </a>
        )}
      </div>
      {!canPost && internships.length === 0 && (
        <p class="mt-6 text-slate-700">
          Posting is open to community members and admins. Meanwhile,{" "}
          <a href="/internships" class="text-indigo-700 underline">browse the internships</a>.
        </p>
      )}
      {internships.length > 0 && (
        <ul class="mt-6 space-y-4">
          {internships.map((internship) => (
            <li key={internship.id} class="space-y-2">
              <InternshipCard internship={internship} showState headingLevel={2} />
              <div class="flex gap-3">
                <a
                  href={`/internships/${internship.id}/edit`}
                  class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
                >
                  Edit<span class="sr-only">{` ${internship.title}`}</span>
                </a>
                <InternshipDeleteButton id={internship.id} title={internship.title} redirectTo="/internships/mine" />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
