// What an HTTP request's line and headers say, read the way every route of the
// HTTP transports needs it (http.ts, http-legacy-sse.ts).
import type { HttpRequestHead } from "./http-wire.js";

/** The request's path, without the query (which is never logged: it is no place for secrets, but clients err). */
export function pathOf(request: HttpRequestHead): string {
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** A header's value (the first, where node:http gives a list). */
export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export const ACCEPTS_JSON = 1;
export const ACCEPTS_SSE = 2;
/** The last Accept header seen and what it admits: a client sends the same one with every request. */
let lastAccept: string | undefined;
let lastAccepted = 0;

/** Which of application/json and text/event-stream the Accept header lists (or a wildcard covering), as flags. */
export function accepted(request: HttpRequestHead): number {
  const accept = request.headers.accept ?? "";
  if (accept === lastAccept) return lastAccepted;
  let flags = 0;
  for (const part of accept.split(",")) {
    const range = part.split(";")[0]!.trim().toLowerCase();
    if (range === "*/*") flags |= ACCEPTS_JSON | ACCEPTS_SSE;
    else if (range === "application/json" || range === "application/*") flags |= ACCEPTS_JSON;
    else if (range === "text/event-stream" || range === "text/*") flags |= ACCEPTS_SSE;
  }
  lastAccept = accept;
  lastAccepted = flags;
  return flags;
}
