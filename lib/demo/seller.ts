/**
 * The seller the demo issues tax invoices as (docs/decisions.md, Money operations, "Tax invoice"), so `deno task demo`
 * shows a real tax invoice with its place of supply: a made-up company in Karnataka, with a grievance address so
 * `/contact` and `/privacy` name one. A deployer's own `SELLER_*` variables win: the demo's are added only when none
 * is set.
 */

/** The demo's `SELLER_*` variables. */
export const DEMO_SELLER: Readonly<Record<string, string>> = {
  SELLER_NAME: "Career Community Demo Private Limited",
  SELLER_ADDRESS: "12 MG Road, Bengaluru 560001",
  SELLER_STATE: "Karnataka",
  SELLER_GSTIN: "29AABCC1234D1Z5",
  GRIEVANCE_EMAIL: "support@demo.careers",
};

/** `env` with the demo seller's variables when it sets no `SELLER_*` of its own (its own `GRIEVANCE_EMAIL` wins). */
export function withDemoSeller(env: Record<string, string>): Record<string, string> {
  return Object.keys(env).some((name) => name.startsWith("SELLER_")) ? env : { ...DEMO_SELLER, ...env };
}
