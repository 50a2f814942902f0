// One client request's path through the server, in order. The session
// (session/receive.ts) receives a framed message, parses and classifies it
// (runtime/json.ts, runtime/messages.ts), and drives each request through:
//
//   1. batch.ts    a JSON-RPC batch: each message in turn, the replies sent as one array
//   2. gate.ts     arrival checks: the id, the session's bounds on requests in flight
//   3. era.ts      which protocol facts apply: the handshake session's, or the revision
//                  the request's own `_meta` names (initialize: session/handshake.ts)
//   4. admit.ts    method, capability and schema checks at that revision; Mcp-* headers
//                  against the body (protocol/headers.ts); the input round opened
//   5. convert.ts  params up to the handler revision
//   6. invoke      the handler runs with its RequestContext (Session.invoke; the
//                  features in ../features, tasks in ../tasks)
//   7. outcome.ts  a result, an error, a round of input, or a task
//   8. encode.ts   the result checked and converted down to the wire revision
//   9. reply.ts    the response's JSON text, handed to the transport's Channel
export { receiveBatch } from "./batch.js";
export { refusal } from "./gate.js";
export { eraOf, statesPerRequest } from "./era.js";
export { admit } from "./admit.js";
export { askClient, fail, succeed } from "./outcome.js";
export { errorJson } from "./reply.js";
