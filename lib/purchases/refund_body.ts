/** The body of the admin's refund requests (docs/api.md, Money operations): an optional reason, ≤ 500 characters. */
import { z } from "zod";

/** `{reason?}`; an empty reason counts as none. */
export const RefundBodySchema = z.object({
  reason: z.string().trim().max(500).optional().transform((v) => v || undefined),
});
