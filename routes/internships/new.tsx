/**
 * `/internships/new`: the form to post an internship. Guests are sent to sign in and back;
 * a signed-in `user` gets a 403 page explaining that members post (docs/decisions.md, Auth, "Ingest
 * user"); members and admins get the form, which posts to `POST /api/internships`.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { canPost } from "@/lib/internships/policy.ts";
import { applyValuesOf, EMPTY_FORM } from "@/lib/browser/internship_form.ts";
import { MessagePage } from "@/components/internships/MessagePage.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import InternshipForm from "@/islands/InternshipForm.tsx";

interface Data {
  allowed: boolean;
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const allowed = canPost(ctx.state.user);
    return ctx.render({ allowed }, { status: allowed ? 200 : 403 });
  },
});

export default define.page<Data>(function NewInternshipPage({ data }) {
  if (!data.allowed) {
    return (
      <MessagePage
        title="Only members can post internships"
        link={{ href: "/internships", label: "Browse internships" }}
      >
        <p>
          Posting is open to community members and admins, so every listing comes from someone we know. If your
          organization is hiring interns, ask an admin to make your account a member.
        </p>
      </MessagePage>
    );
  }
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title="Post an internship" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Post an internship</h1>
      <p class="mt-2 text-slate-700">
        Fields marked as required are title, organization and application link. Everything else helps students decide.
      </p>
      <div class="mt-6">
        <InternshipForm values={EMPTY_FORM} apply={applyValuesOf()} />
      </div>
    </section>
  );
});
