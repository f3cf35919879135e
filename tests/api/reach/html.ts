/** Reading served pages and feeds in tests: HTML parsed with linkedom, XML with xmldom (a malformed document throws). */
import { DOMParser as XmlParser } from "@xmldom/xmldom";
import { parseHTML } from "linkedom";

/** The parsed HTML of `html`. */
export function htmlDocument(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

/** The `content` of the head's `<meta>` with `name` or `property` equal to `key`, or null. */
export function metaContent(document: Document, key: string): string | null {
  const meta = document.querySelector(`meta[name="${key}"], meta[property="${key}"]`);
  return meta?.getAttribute("content") ?? null;
}

/** The JSON-LD values of the page (each `<script type="application/ld+json">`, parsed). */
export function jsonLdOf(document: Document): Record<string, unknown>[] {
  return [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) =>
    JSON.parse(script.textContent ?? "")
  );
}

/** `xml` parsed; throws on any well-formedness error. */
export function xmlDocument(xml: string): XMLDocument {
  const parser = new XmlParser({
    onError: (level: string, message: string) => {
      if (level !== "warning") throw new Error(`${level}: ${message}`);
    },
  });
  return parser.parseFromString(xml, "text/xml") as unknown as XMLDocument;
}

/** The text of every element named `name` under `parent`, in document order. */
export function texts(parent: Document | Element, name: string): string[] {
  return [...parent.getElementsByTagName(name)].map((element) => element.textContent ?? "");
}
