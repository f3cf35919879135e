/**
 * Prints a new VAPID key pair for Web Push as the three lines of `.env` it belongs in (docs/decisions.md, Push,
 * "Keys"): `deno run -A scripts/vapid_keys.ts`. Keep the private key secret; changing the pair later orphans every
 * subscription.
 */
import { generateVapidKeys } from "@/lib/push/web_push.ts";

const { publicKey, privateKey } = await generateVapidKeys();
console.log(`VAPID_PUBLIC_KEY=${publicKey}\nVAPID_PRIVATE_KEY=${privateKey}\nVAPID_SUBJECT=mailto:admin@example.com`);
