// Reading a request body off node:http's IncomingMessage stream, for serveHttp
// and for the fetch handler behind toNodeListener. The request is typed by
// what is read of it, so that no node: module is imported here (the fetch
// entry reaches this file and loads where node:http does not exist).
import { utf8Text } from "../utf8.js";
import { BodiesHeld, BodyNotUtf8, BodyTooLarge } from "./http-guard.js";
import { BodyAlreadyRead, type BodyReader, type HttpRequestHead } from "./http-wire.js";

/** What is read of node:http's IncomingMessage (or a framework's request built on it). */
export interface NodeRequest extends HttpRequestHead {
  readonly readableEnded: boolean;
  readonly readableDidRead: boolean;
  resume(): unknown;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * Reads a request body off node's stream, refusing one larger than `limit`
 * bytes without buffering past it, or one that `held` has no room for (a
 * declared length is taken at once, a chunked body as it comes). `remedy`:
 * what to do when a body parser read the stream first, in the adapter's terms.
 */
export const nodeBodyReader =
  (remedy: string): BodyReader<NodeRequest> =>
  (request, limit, held, done) => {
    // A body parser read the stream first: its `end` has come and gone, and waiting for it would hang.
    if (request.readableEnded || request.readableDidRead) return done(new BodyAlreadyRead(remedy), "");
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && (declared > limit || !held.growTo(declared))) {
      request.resume(); // drain what the client sends; the reply says why
      done(declared > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
      return;
    }
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    request.on("data", (bytes: Uint8Array) => {
      const chunk = bytes as Buffer; // what node's stream gives
      if (settled) return;
      size += chunk.length;
      if (size > limit || !held.growTo(size)) {
        settled = true;
        chunks = [];
        done(size > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (settled) return;
      settled = true;
      const text = chunks.length === 0 ? "" : utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      if (typeof text === "number") done(new BodyNotUtf8(text), "");
      else done(undefined, text);
    });
    request.on("error", (error: Error) => {
      if (settled) return;
      settled = true;
      done(error, "");
    });
  };
