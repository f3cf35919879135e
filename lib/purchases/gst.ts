/**
 * The GST every price includes (docs/decisions.md, Money operations, "Receipts"): a module of its own, free of KV, so a
 * component that prints a tax document's lines reads it.
 */

/** The GST rate included in every price, in percent. */
export const GST_RATE_PERCENT = 18;
