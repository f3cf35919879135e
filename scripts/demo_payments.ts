/**
 * `deno task demo:payments`: the demo with checkout and social sign-in working locally, against
 * the fakes of `tests/fakes/`: the fake Razorpay orders API with its Checkout.js stand-in (the
 * payment window is a browser dialog: OK pays, "decline" declines), and fake Google and LinkedIn
 * providers that sign in as `google.user@demo.careers` and `linkedin.user@demo.careers`. Seeds the
 * demo data and tells the fake of its paid purchases' payments (so the admin refunds them too), then
 * serves the platform (`PORT`, default 8000) until Ctrl-C, as the demo seller of
 * `lib/demo/seller.ts` (tax invoices) unless the environment names its own. The fakes' keys are
 * test keys: nothing here reaches Razorpay, Google or LinkedIn.
 */
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { startFakeOidcProvider } from "@/tests/fakes/oidc.ts";
import { withDemoSeller } from "@/lib/demo/seller.ts";
import { capturedPayments } from "@/lib/demo/money.ts";
import { loadConfig } from "@/app.config.ts";
import { openKv } from "@/lib/kv.ts";

const root = new URL("..", import.meta.url).pathname;
const razorpay = startFakeRazorpay();
const google = await startFakeOidcProvider({ issuer: "https://accounts.google.com" });
google.identity = { sub: "demo-google", email: "google.user@demo.careers", email_verified: true, name: "Gita Google" };
const linkedin = await startFakeOidcProvider({ issuer: "https://www.linkedin.com/oauth" });
linkedin.identity = {
  sub: "demo-linkedin",
  email: "linkedin.user@demo.careers",
  email_verified: true,
  name: "Lalit LinkedIn",
};
const env = {
  ...withDemoSeller(Deno.env.toObject()),
  ...razorpay.env,
  RAZORPAY_CHECKOUT_URL: razorpay.checkoutUrl,
  ...google.env("GOOGLE"),
  ...linkedin.env("LINKEDIN"),
};

const run = (script: string) =>
  new Deno.Command(Deno.execPath(), { args: ["run", "-A", script], cwd: root, env, stdin: "null" }).spawn();

try {
  const seeded = await run("scripts/seed.ts").status;
  if (!seeded.success) Deno.exit(seeded.code);
  // The seeded purchases were paid through an offline stand-in: the fake learns their payments, so they refund too.
  const kv = await openKv(loadConfig(env).kvPath);
  for (const paid of await capturedPayments(kv)) {
    razorpay.addPayment(paid.orderId, "captured", { id: paid.paymentId, amount: paid.amount });
  }
  kv.close();
  console.log(
    `Fake Razorpay at ${razorpay.url} (checkout: a dialog; OK pays, "decline" declines); ` +
      `"Continue with Google" signs in as google.user@demo.careers, LinkedIn as linkedin.user@demo.careers.`,
  );
  const server = run("main.ts");
  Deno.addSignalListener("SIGINT", () => server.kill("SIGINT"));
  await server.status;
} finally {
  await razorpay.close();
  await google.close();
  await linkedin.close();
}
