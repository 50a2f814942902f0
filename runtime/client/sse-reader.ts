// Reads a text/event-stream body (the WHATWG "event stream" grammar, as used by
// basic/transports#streamable-http): events with data, id and retry, lines
// ended by "\n", "\r\n" or "\r". Bounded: an event larger than the limit ends
// the stream with an error instead of growing a buffer without end. An event's
// size is its data as delivered (the data lines joined by "\n"), so a data line
// counts one more than its value: a flood of empty "data:" lines is bounded too.

export interface SseEvent {
  readonly data: string;
  readonly id?: string;
  readonly event?: string;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  /** The server's reconnection delay (the retry field), in ms. */
  retry?(ms: number): void;
}

/**
 * The stream carried what the reader cannot take (an event over its limit,
 * bytes that are not UTF-8): what it was carrying is lost, and resuming would replay it.
 */
export class UnreadableEventError extends Error {}

export async function readSse(body: ReadableStream<Uint8Array>, limit: number, handlers: SseHandlers): Promise<void> {
  // basic/transports: messages "MUST be UTF-8 encoded"; fatal: what is not is refused, not given U+FFFD.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let buffer = "";
  let data: string[] = [];
  let size = 0;
  // A line holds at most a data value of the whole limit and its field name.
  const lineLimit = limit + "data: ".length;
  let id: string | undefined;
  let event: string | undefined;
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0)
        handlers.event({ data: data.join("\n"), ...(id !== undefined ? { id } : {}), ...(event ? { event } : {}) });
      data = [];
      size = 0;
      event = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      size += (data.length > 0 ? 1 : 0) + value.length;
      if (size > limit) throw new UnreadableEventError(`an event with more than ${limit} characters of data`);
      data.push(value);
    } else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "event") event = value;
    else if (field === "retry" && /^\d+$/.test(value)) handlers.retry?.(Number(value));
  };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      try {
        buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      } catch {
        throw new UnreadableEventError("bytes that are not UTF-8");
      }
      let start = 0;
      for (;;) {
        const cr = buffer.indexOf("\r", start);
        const lf = buffer.indexOf("\n", start);
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        // A "\r" at the end of the buffer may be the first half of "\r\n": wait for more.
        if (end === -1 || (end === buffer.length - 1 && buffer[end] === "\r" && !done)) break;
        line(buffer.slice(start, end));
        start = end + (buffer[end] === "\r" && buffer[end + 1] === "\n" ? 2 : 1);
      }
      buffer = buffer.slice(start);
      if (buffer.length > lineLimit) throw new UnreadableEventError(`a line of more than ${lineLimit} characters`);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
