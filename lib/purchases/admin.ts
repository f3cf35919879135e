/**
 * The admin's purchase list, `GET /api/admin/purchases` (docs/api.md, Money operations;
 * docs/decisions.md, Money operations): every purchase newest first, by state, searched over the buyer's name and
 * e-mail, the toolkit's title and the order and payment ids, with the buyer, the toolkit, the payment id, extra payments
 * and refund. An admin page, so it reads every purchase record (the dashboard's figures never do: `lib/stats/`); a
 * search word that is a whole e-mail address is the buyer's address, looked up in the e-mail index; another word
 * matches the title and ids, or the buyer when it starts a word of their name or address (the users' word index,
 * `usersWithWord`), so a search reads no buyer's record, unless a word starts more users' words than that index's
 * limit: then every buyer is read, in parallel, and matched within their name and address. A paid purchase comes with
 * its buyer's refund request and the refund policy's facts (`refundPolicyFacts`); `refundRequest=open` keeps the
 * purchases whose request waits for an answer (docs/decisions.md, Money operations, "Refund requests"), and
 * `gatewayRefund=partial` those with a payment refunded in part at the gateway and not in full since
 * (`isPartlyRefunded`; "Refunds made at the gateway").
 */
import { z } from "zod";
import { getToolkitsByIds } from "@/lib/toolkits/catalog.ts";
import { getUsers, type User, userIdByEmail } from "@/lib/users/users.ts";
import { usersWithWord } from "@/lib/users/user_index.ts";
import {
  getPurchaseEntry,
  PAYMENT_STATUSES,
  type PaymentStatus,
  type Purchase,
  type PurchaseRecord,
  purchaseView,
  receiptPath,
  type RefundRequest,
} from "./purchases.ts";
import { lessonIdsOf, type RefundPolicyFacts, refundPolicyFacts } from "./refund_requests.ts";
import { isPartlyRefunded } from "./refund_policy.ts";

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * Query of `GET /api/admin/purchases`: `status`, `refundRequest` (`open`), `gatewayRefund` (`partial`), `owedBack`
 * (`open`), `search`
 * (≤ 100 characters), `limit` 1–100 (50), `offset`.
 */
export const adminPurchaseQuerySchema = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  refundRequest: z.enum(["open"]).optional().describe("`open`: only purchases whose refund request waits"),
  gatewayRefund: z.enum(["partial"]).optional().describe(
    "`partial`: only purchases with a payment refunded in part at the gateway, not in full since",
  ),
  owedBack: z.enum(["open"]).optional().describe(
    "`open`: only purchases with a payment that granted nothing (`extraPayments`) and is not refunded yet",
  ),
  search: z.string().trim().max(100).optional(),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});

/** A parsed query of the list. */
export type AdminPurchaseQuery = z.infer<typeof adminPurchaseQuerySchema>;

/** A row of the admin list. Money in paise. */
export type AdminPurchaseRow = Purchase & {
  user: { id: string; name: string; email: string } | null;
  toolkit: { id: string; title: string } | null;
  paymentId: string | null;
  extraPayments: NonNullable<PurchaseRecord["extraPayments"]>;
  refund: PurchaseRecord["refund"] | null;
  listPricePaise: number | null;
  discountPaise: number | null;
  couponCode: string | null;
  receiptNumber: string | null;
  receiptUrl: string | null;
  refundRequest: RefundRequest | null;
  /** Refunds of part of a payment made at the gateway (`refundedAtGateway` sums them); empty when none. */
  gatewayPartialRefunds: NonNullable<PurchaseRecord["gatewayPartialRefunds"]>;
  /** The refund policy's facts of a paid purchase; null otherwise. */
  policy: RefundPolicyFacts | null;
};

/** A page of the list, with how many purchases are in each state (the tabs). */
export interface AdminPurchasePage {
  purchases: AdminPurchaseRow[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
  /**
   * Purchases in each state, in all, with a refund request waiting (`asked`), with a payment refunded in part at the
   * gateway (`partlyRefunded`) and with a payment owed back not refunded yet (`owed`).
   */
  counts: Record<PaymentStatus | "all" | "asked" | "partlyRefunded" | "owed", number>;
}

/** A search word that is a whole e-mail address: matched as the buyer's address through the e-mail index. */
const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The purchases matching `query`, newest first, one page of them. */
export async function listPurchasesForAdmin(kv: Deno.Kv, query: AdminPurchaseQuery): Promise<AdminPurchasePage> {
  const records: PurchaseRecord[] = [];
  for await (const entry of kv.list<PurchaseRecord>({ prefix: ["purchases"] }, { batchSize: 500 })) {
    records.push(entry.value);
  }
  records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  const words = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  // Whole addresses are looked up in the e-mail index, other words in the users' word index; only a word that starts
  // too many users' words to read needs every buyer's name and address.
  const addresses = words.filter((word) => ADDRESS.test(word));
  const otherWords = words.filter((word) => !ADDRESS.test(word));
  const [owners, named, toolkits] = await Promise.all([
    Promise.all(addresses.map((address) => userIdByEmail(kv, address))),
    Promise.all(otherWords.map((word) => usersWithWord(kv, word))),
    getToolkitsByIds(kv, [...new Set(records.map((r) => r.toolkitId))]),
  ]);
  const users = named.some((n) => n.more)
    ? await getUsers(kv, records.flatMap((r) => r.userId ? [r.userId] : []))
    : new Map<string, User>();
  const counts = Object.fromEntries(
    [...PAYMENT_STATUSES, "all", "asked", "partlyRefunded", "owed"].map((s) => [s, 0]),
  ) as AdminPurchasePage["counts"];
  const matching = records.filter((record) => {
    if (words.length > 0) {
      const user = record.userId ? users.get(record.userId) : undefined;
      const haystack = [
        user?.name,
        user?.email,
        toolkits.get(record.toolkitId)?.title,
        ...Object.keys(record.orders),
        record.paymentId,
        ...(record.extraPayments ?? []).map((p) => p.paymentId),
      ].filter(Boolean).join("\n").toLowerCase();
      const isBuyer = (i: number) => record.userId !== null && owners[i] === record.userId;
      if (!addresses.every((address, i) => isBuyer(i) || haystack.includes(address))) return false;
      const isNamed = (i: number) => record.userId !== null && named[i].users.has(record.userId);
      if (!otherWords.every((word, i) => isNamed(i) || haystack.includes(word))) return false;
    }
    const open = record.refundRequest?.status === "open";
    const partly = isPartlyRefunded(record);
    const owed = (record.extraPayments ?? []).some((payment) => payment.paymentId !== null && !payment.refund);
    counts[record.paymentStatus]++;
    counts.all++;
    if (open) counts.asked++;
    if (partly) counts.partlyRefunded++;
    if (owed) counts.owed++;
    return (!query.status || record.paymentStatus === query.status) && (!query.refundRequest || open) &&
      (!query.gatewayRefund || partly) && (!query.owedBack || owed);
  });
  const purchases = await rowsOf(kv, matching.slice(query.offset, query.offset + query.limit), toolkits);
  const { limit, offset } = query;
  const total = matching.length;
  return { purchases, pagination: { limit, offset, total, hasMore: offset + purchases.length < total }, counts };
}

/** The row of purchase `id` as the list shows it, or null when there is no such purchase. */
export async function adminPurchaseRow(kv: Deno.Kv, id: string): Promise<AdminPurchaseRow | null> {
  const record = (await getPurchaseEntry(kv, id)).value;
  if (!record) return null;
  const [row] = await rowsOf(kv, [record], await getToolkitsByIds(kv, [record.toolkitId]));
  return row;
}

/** The rows of `page`: each record with its buyer (read here), toolkit (of `toolkits`) and policy facts. */
async function rowsOf(
  kv: Deno.Kv,
  page: PurchaseRecord[],
  toolkits: Map<string, { id: string; title: string }>,
): Promise<AdminPurchaseRow[]> {
  const paid = page.filter((record) => record.paymentStatus === "paid");
  const toolkitIds = [...new Set(paid.map((record) => record.toolkitId))];
  // Each toolkit's lessons are read once, not once a row: a page of 50 buyers of one toolkit read its lessons, bodies
  // and all, 50 times.
  const [buyers, lessons] = await Promise.all([
    getUsers(kv, page.flatMap((r) => r.userId ? [r.userId] : [])),
    Promise.all(toolkitIds.map((id) => lessonIdsOf(kv, id))),
  ]);
  const lessonIds = new Map(toolkitIds.map((id, i) => [id, lessons[i]]));
  const now = Date.now();
  const policies = await Promise.all(
    page.map((record) =>
      record.paymentStatus === "paid" ? refundPolicyFacts(kv, record, now, lessonIds.get(record.toolkitId)!) : null
    ),
  );
  return page.map((record, i): AdminPurchaseRow => {
    const user = record.userId ? buyers.get(record.userId) : undefined;
    const toolkit = toolkits.get(record.toolkitId);
    return {
      ...purchaseView(record),
      user: user ? { id: user.id, name: user.name, email: user.email } : null,
      toolkit: toolkit ? { id: toolkit.id, title: toolkit.title } : null,
      paymentId: record.paymentId,
      extraPayments: record.extraPayments ?? [],
      refund: record.refund ?? null,
      listPricePaise: record.listPricePaise ?? null,
      discountPaise: record.discountPaise ?? null,
      couponCode: record.couponCode ?? null,
      receiptNumber: record.receipt?.number ?? null,
      receiptUrl: record.receipt ? receiptPath(record.id) : null,
      refundRequest: record.refundRequest ?? null,
      gatewayPartialRefunds: record.gatewayPartialRefunds ?? [],
      policy: policies[i],
    };
  });
}
