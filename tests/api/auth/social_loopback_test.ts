import { assertEquals } from "@/tests/helpers/assert.ts";
import { socialSetup } from "./social_helpers.ts";

Deno.test("a social sign-in started on 127.0.0.1 for APP_URL localhost moves to localhost first, query kept", async () => {
  await using s = await socialSetup();
  const query = "provider=google&callbackURL=%2Ftoolkits";
  const res = await s.t.fetch(`http://127.0.0.1:8000/api/auth/sign-in/social?${query}`);
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), `http://localhost:8000/api/auth/sign-in/social?${query}`);
  assertEquals(res.headers.get("set-cookie"), null);
  const direct = await s.t.fetch(`/api/auth/sign-in/social?${query}`);
  assertEquals(new URL(direct.headers.get("location")!).origin, s.google.url);
});
