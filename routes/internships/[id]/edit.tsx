/**
 * `/internships/{id}/edit`: the owner's or an admin's edit form, saving with
 * `PUT /api/internships/{id}` (docs/api.md, Internships, "Who may do what"). Guests are sent to
 * sign in and back; an unknown, deleted or hidden id is 404; anyone else gets a 403 page.
 */
import { define } from "@/lib/platform/define.ts";
import { applyValuesOf, formValuesOf } from "@/lib/browser/internship_form.ts";
import { MessagePage } from "@/components/internships/MessagePage.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipForm from "@/islands/InternshipForm.tsx";
import { getInternship, type InternshipView } from "@/lib/internships/internships.ts";
import { canManage } from "@/lib/internships/policy.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";

interface Data {
  internship: InternshipView;
  allowed: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { user } = ctx.state;
    const internship = await getInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      viewer: user,
      audience: "owner",
    });
    const allowed = canManage(user, internship);
    return ctx.render({ internship, allowed }, { status: allowed ? 200 : 403 });
  },
});

export default define.page<Data>(function EditInternshipPage({ data: { internship, allowed } }) {
  if (!allowed) {
    return (
      <MessagePage
        title="You cannot edit this internship"
        link={{ href: `/internships/${internship.id}`, label: "Back to the internship" }}
      >
        <p>Only the member who posted it and admins can change a listing.</p>
      </MessagePage>
    );
  }
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={`Edit “${internship.title}”`} />
      <a href={`/internships/${internship.id}`} class="text-sm text-indigo-700 underline hover:text-indigo-900">
        ← Back to the internship
      </a>
      <h1 id="page-title" class="mt-4 text-3xl font-bold tracking-tight text-slate-900">Edit “{internship.title}”</h1>
      <div class="mt-6">
        <InternshipForm id={internship.id} values={formValuesOf(internship)} apply={applyValuesOf(internship)} />
      </div>
    </section>
  );
});
