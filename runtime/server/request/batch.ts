// A JSON-RPC batch (an array of messages; 2025-03-26 the one revision that
// admits it, basic#batching): each message dispatched in order, and the
// replies of those that get one sent together, as one array, once the last
// is in (JSON-RPC 2.0 §6).
import type { Classification } from "../../messages.js";
import type { Channel, Inflight } from "../context.js";

/** Dispatches one message of a batch; `reply` is called once for a request or an invalid message. */
export type BatchDispatch = (message: unknown, classification: Classification, reply: Inflight["reply"]) => void;

export function receiveBatch(
  items: readonly unknown[],
  classifications: readonly Classification[],
  channel: Channel,
  dispatch: BatchDispatch,
): void {
  const replies: string[] = [];
  let expected = false;
  let outstanding = 1; // released by the loop's end, so that synchronous replies cannot flush early
  const done = () => {
    if (--outstanding > 0) return;
    if (replies.length > 0) channel.reply(`[${replies.join(",")}]`);
    else if (expected) channel.reply(null); // every request in it was cancelled
  };
  items.forEach((item, i) => {
    const classification = classifications[i]!;
    if (classification.kind === "request" || classification.kind === "invalid") {
      outstanding++;
      expected = true;
    }
    dispatch(item, classification, (json) => {
      if (json !== null) replies.push(json);
      done();
    });
  });
  done();
}
