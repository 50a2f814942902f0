// The checks a client request passes on arrival, before its era and lifecycle
// decide where it goes (session/receive.ts): an id the session can track
// (basic#requests), a session whose revision could load, and the bounds on what
// a client keeps in flight at once (SessionLimits: by count and by length).
import { INTERNAL_ERROR, INVALID_REQUEST } from "../../protocol/handler-revision.js";
import type { IncomingRequest } from "../types.js";
import type { Lifecycle } from "../session/lifecycle.js";
import type { InflightRequests } from "../session/requests-in-flight.js";
import type { SessionLimits } from "../types.js";

/** Why a request is refused on arrival: its error, and whether the message itself is malformed (HTTP 400). */
export interface Refusal {
  readonly code: number;
  readonly message: string;
  readonly malformed: boolean;
}

/**
 * Why request `id` cannot be taken, or undefined when it can. `length`: its
 * share of the message text it came in (0 when the transport did not say).
 */
export function refusal(
  { id, channel, length }: IncomingRequest,
  limits: Required<SessionLimits>,
  lifecycle: Lifecycle,
  requests: InflightRequests,
): Refusal | undefined {
  // basic#requests: "Requests MUST include a string or integer ID". The id was read, so the error echoes it.
  if (typeof id === "number" && !Number.isInteger(id))
    return invalid(`Invalid Request: id must be a string or an integer, not ${id}`, true);
  // A handshake session remembers its last ids: their length is bounded, not only their count.
  if (typeof id === "string" && id.length > limits.idLength)
    return invalid(`Invalid Request: id is ${id.length} characters long, over this server's ${limits.idLength}`, true);
  if (lifecycle.failure !== undefined) return busy(lifecycle.failure);
  // A request on its own exchange (a per-request POST) has an id of its own and is bounded by the transport.
  if (channel.singleRequest) return undefined;
  // basic#requests: an id must not match a request still in flight; a handshake session also
  // remembers finished ones ("MUST NOT have been previously used by the requestor within the same session").
  if (requests.uses(id, lifecycle.scope !== undefined))
    return invalid(`Invalid Request: id ${JSON.stringify(id)} was already used in this session`, false);
  if (requests.onConnection >= limits.inflightRequests)
    return busy(`Server busy: ${limits.inflightRequests} requests are already in flight in this session`);
  // A lone request always passes: a message longer than the bound must still be answerable.
  const held = requests.lengthOnConnection;
  if (held > 0 && held + length > limits.inflightLength)
    return busy(
      `Server busy: the requests in flight in this session came in ${held} characters of messages, and this one's ${length} would pass the limit of ${limits.inflightLength}`,
    );
  return undefined;
}

function invalid(message: string, malformed: boolean): Refusal {
  return { code: INVALID_REQUEST, message, malformed };
}

function busy(message: string): Refusal {
  return { code: INTERNAL_ERROR, message, malformed: false };
}
