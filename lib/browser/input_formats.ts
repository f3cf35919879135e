/**
 * Browser-safe: what people type into forms, in the forms the API takes (docs/decisions.md, Islands, "Input as people
 * type it"). The forms change the value before they send it (with or without JavaScript); the API keeps its own rules
 * and refuses what still does not fit, beside the field.
 */

/** A rupee amount as people write it, "₹25,000", "25,000 /month", "Rs. 5000", as its digits ("25000"); else trimmed. */
export function plainRupees(text: string): string {
  const compact = text.trim().replace(/^(?:₹|rs\.?|inr)\s*/i, "").replace(/\s*(?:\/|per)\s*(?:month|mo)\.?$/i, "");
  const digits = compact.replace(/[,\s]/g, "");
  return /^\d+(\.\d+)?$/.test(digits) ? digits : text.trim();
}

/**
 * A rupee amount as people write it as a number (`plainRupees`), or its trimmed text when it is not one ("15k"), which
 * the API then refuses beside the field with the form's other problems.
 */
export function rupeesOrText(text: string): number | string {
  const plain = plainRupees(text);
  const amount = Number(plain);
  return plain === "" || Number.isNaN(amount) ? plain : amount;
}

/**
 * A web address typed without its scheme, "coep.ac.in/hack" or "www.example.com", with `https://` in front; anything
 * else (one with a scheme, a path, an e-mail address, text) trimmed and unchanged.
 */
export function withScheme(text: string): string {
  const value = text.trim();
  return /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$/i.test(value) ? `https://${value}` : value;
}
