import { assertEquals } from "@/tests/helpers/assert.ts";
import { loadConfig } from "@/app.config.ts";
import { INDIAN_STATES, indianState } from "./indian_states.ts";
import { buyerStateOf, placeOfSupplyLabel, sellerStateOf, stateOfPlace } from "./place_of_supply.ts";

Deno.test("indianState: 36 states and union territories by name, any case, & for and, older names", () => {
  assertEquals(INDIAN_STATES.length, 36);
  assertEquals(new Set(INDIAN_STATES.map((s) => s.code)).size, 36);
  assertEquals(indianState("maharashtra"), { name: "Maharashtra", code: "27" });
  assertEquals(indianState("  Tamil   Nadu "), { name: "Tamil Nadu", code: "33" });
  assertEquals(indianState("Jammu & Kashmir")?.code, "01");
  assertEquals(indianState("Orissa")?.name, "Odisha");
  assertEquals(indianState("Pondicherry")?.name, "Puducherry");
  assertEquals(indianState("Daman and Diu")?.code, "26");
  for (const refused of ["", "Pune", "Maharastra", "27", "California", null, undefined]) {
    assertEquals(indianState(refused), null, String(refused));
  }
});

Deno.test("stateOfPlace: a state, a known city under any of its names, or a city with its state", () => {
  const name = (place: string) => stateOfPlace(place)?.name ?? null;
  assertEquals(name("Pune"), "Maharashtra");
  assertEquals(name("pune "), "Maharashtra");
  assertEquals(name("Bangalore"), "Karnataka");
  assertEquals(name("Gurgaon"), "Haryana");
  assertEquals(name("Navi Mumbai"), "Maharashtra");
  assertEquals(name("Pune, Maharashtra"), "Maharashtra");
  assertEquals(name("Hyderabad (Telangana)"), "Telangana");
  assertEquals(name("Kerala"), "Kerala");
  // A city two states share, or one we do not know, names no state.
  assertEquals(name("Aurangabad"), null);
  assertEquals(name("Atlantis"), null);
});

Deno.test("buyerStateOf: the checkout's state, then the onboarding location's; sellerStateOf: SELLER_STATE, then the GSTIN's code", () => {
  const pune = { locationType: "city", locationValue: "Pune" };
  assertEquals(buyerStateOf({ checkoutState: "Goa", onboarding: pune })?.name, "Goa");
  assertEquals(buyerStateOf({ checkoutState: null, onboarding: pune })?.name, "Maharashtra");
  assertEquals(
    buyerStateOf({ onboarding: { locationType: "state", locationValue: "west bengal" } })?.name,
    "West Bengal",
  );
  assertEquals(buyerStateOf({ onboarding: { locationType: "city", locationValue: "Atlantis" } }), null);
  assertEquals(buyerStateOf({ onboarding: null }), null);
  assertEquals(sellerStateOf({ state: "Karnataka", gstin: "29ABCDE1234F1Z5" })?.code, "29");
  assertEquals(sellerStateOf({ gstin: "27ABCDE1234F1Z5" })?.name, "Maharashtra");
  assertEquals(sellerStateOf({}), null);
  assertEquals(placeOfSupplyLabel(indianState("Delhi")!), "Delhi (07)");
});

Deno.test("configuration: SELLER_STATE must name a state, and a GSTIN's code must be that state's", () => {
  const base = { KV_PATH: ":memory:" };
  assertEquals(
    loadConfig({ ...base, SELLER_STATE: "karnataka", SELLER_GSTIN: "29ABCDE1234F1Z5" }).seller.state,
    "Karnataka",
  );
  for (
    const env of [
      { SELLER_STATE: "Bangalore" },
      { SELLER_STATE: "Maharashtra", SELLER_GSTIN: "29ABCDE1234F1Z5" },
      { SELLER_GSTIN: "99ABCDE1234F1Z5" },
    ]
  ) {
    let refused = false;
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      refused = error instanceof Error && error.name === "ConfigError";
    }
    assertEquals(refused, true, JSON.stringify(env));
  }
});
