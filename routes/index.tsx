/** Home page: the pitch and the two next steps (internships; sign-up for guests, the profile for members). */
import { PageTitle } from "../components/PageTitle.tsx";
import type { AppState } from "../lib/state.ts";
import type { PageProps } from "../lib/web/types.ts";

export default function Home({ state }: PageProps<unknown, AppState>) {
  return (
    <section class="py-12 text-center">
      <PageTitle title="Find internships and opportunities" />
      <h1 class="text-4xl font-bold tracking-tight">
        {state.user ? `Welcome back, ${state.user.name}` : "Find your next opportunity"}
      </h1>
      <p class="mt-4 text-lg text-slate-700">
        Internships, hackathons, grants and toolkits for students and early-career builders.
      </p>
      <div class="mt-8 flex justify-center gap-4">
        <a href="/internships" class="rounded-md bg-indigo-600 px-5 py-3 font-medium text-white hover:bg-indigo-700">
          Browse internships
        </a>
        <a
          href={state.user ? "/profile" : "/sign-up"}
          class="rounded-md border border-slate-300 bg-white px-5 py-3 font-medium hover:bg-slate-100"
        >
          {state.user ? "Your profile" : "Create an account"}
        </a>
      </div>
    </section>
  );
}
