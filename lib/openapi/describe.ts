/**
 * How an API route describes itself for the OpenAPI document (docs/decisions.md, Search engines and sharing, "API
 * description"): every file under `routes/api/` exports `apiDocs = describeRoute({...})` beside its `handler`, one
 * entry per method it handles, naming the very zod schemas the handler validates its query and body with. The
 * document (`document.ts`) is generated from these; a test fails for a route file without them, for a method
 * documented but not handled or handled but not documented, and for a path documented but not served.
 */
import type { z } from "zod";
import type { Method } from "@/lib/web/types.ts";

/**
 * Who may call an operation: anyone (`public`), a signed-in `session`, an `admin` session, an `apiKey` (an
 * admin-issued ingest key as `Authorization: Bearer`), or a caller proving a `signature` (the gateway's webhook).
 */
export type Access = "public" | "session" | "admin" | "apiKey" | "signature";

/** One response: its description, and the zod schema of its JSON body (or another media type) when it has one. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** The body's media type when it is not JSON, e.g. `image/png` or `text/html`. */
  mediaType?: string;
}

/** One operation (a method of a route). */
export interface OperationDoc {
  summary: string;
  description?: string;
  /** Who may call it; anyone when absent. Several: any one of them. */
  access?: Access[];
  /** The query parameters: the zod object the handler validates `queryOf(ctx.url)` with. */
  query?: z.ZodType;
  /** The JSON request body: the zod schema the handler validates it with. */
  body?: z.ZodType;
  /** A request body that is not JSON: its media type and description (uploads, the webhook's raw body). */
  rawBody?: { mediaType: string; description: string };
  /** Responses by status; a string is a description of a body without schema. */
  responses: Record<number, ResponseDoc | string>;
}

/** A route's operations by method. */
export type RouteDocs = Partial<Record<Exclude<Method, "HEAD" | "OPTIONS">, OperationDoc>>;

/** A route module's `apiDocs` export (identity: it only types the value). */
export function describeRoute(docs: RouteDocs): RouteDocs {
  return docs;
}
