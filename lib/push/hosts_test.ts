import { assertEquals } from "@/tests/helpers/assert.ts";
import { endpointAllowed } from "./hosts.ts";

const DEFAULT = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.notify.windows.com",
  "web.push.apple.com",
];

Deno.test("endpointAllowed: the browsers' push services over https, on any port when the rule names none", () => {
  for (
    const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
      "https://wns2-par02p.notify.windows.com/w/?token=x",
      "https://web.push.apple.com/QGuQyav",
      "https://fcm.googleapis.com:8443/x",
    ]
  ) assertEquals(endpointAllowed(endpoint, DEFAULT), true, endpoint);
});

Deno.test("endpointAllowed: another host, a look-alike, http on a public host, a user name: refused", () => {
  for (
    const endpoint of [
      "https://evil.example/push",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evilfcm.googleapis.com/x",
      "https://notify.windows.com/x",
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://user@fcm.googleapis.com/x",
      "not a url",
      "ftp://fcm.googleapis.com/x",
    ]
  ) assertEquals(endpointAllowed(endpoint, DEFAULT), false, endpoint);
});

Deno.test("endpointAllowed: http only for a listed loopback host, and a port rule holds to its port", () => {
  const hosts = ["127.0.0.1:4000", "localhost"];
  assertEquals(endpointAllowed("http://127.0.0.1:4000/push/1", hosts), true);
  assertEquals(endpointAllowed("http://127.0.0.1:4001/push/1", hosts), false);
  assertEquals(endpointAllowed("http://localhost:9999/push/1", hosts), true);
  assertEquals(endpointAllowed("http://127.0.0.1:4000/push/1", DEFAULT), false, "not listed");
  assertEquals(endpointAllowed("http://10.0.0.5/push", ["10.0.0.5"]), false, "http on a host that is not loopback");
});
