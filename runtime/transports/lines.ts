// Newline-delimited framing of a byte stream (basic/transports#stdio: one
// JSON-RPC message per line), shared by the stdio server and the stdio client.
// A line longer than the limit is dropped as it streams in (never held whole)
// and reported once its end arrives; a line that is not UTF-8 is reported, not
// decoded with replacement characters (utf8.ts).
import { utf8Text } from "../utf8.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

export interface LineSink {
  /** A complete line, without "\n" or a trailing "\r"; blank lines are skipped. */
  line(text: string): void;
  /** A line of `bytes` bytes (at least `limit`) was dropped. */
  oversized(bytes: number, limit: number): void;
  /** A line was dropped: it is not UTF-8, from its byte `offset` on. */
  notUtf8(offset: number): void;
}

export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly limit: number,
    private readonly sink: LineSink,
  ) {}

  push(bytes: Buffer): void {
    let start = 0;
    let wholeLinesTried = false;
    while (start < bytes.length) {
      // The common case: whole lines (the chunk's, or those after the end of a line the last chunk
      // began), decoded in one call into the decoder and split as text rather than one call per
      // line. Lines within `limit` bytes together are
      // each within it; text with U+FFFD goes line by line, which says where it is. Tried once a
      // chunk, so that a chunk that goes line by line is not decoded again for every line.
      if (!wholeLinesTried && this.pending.length === 0 && !this.discarding) {
        wholeLinesTried = true;
        const last = bytes.lastIndexOf(NEWLINE);
        if (last > start && last - start <= this.limit) {
          const text = bytes.toString("utf8", start, last);
          if (text.indexOf("\uFFFD") === -1) {
            this.deliverLines(text);
            start = last + 1;
            continue;
          }
        }
      }
      const end = bytes.indexOf(NEWLINE, start);
      const stop = end === -1 ? bytes.length : end;
      const size = this.pendingBytes + (stop - start);
      if (size > this.limit) {
        this.discarding = true;
        this.pending = [];
      } else if (!this.discarding) {
        if (end !== -1 && this.pending.length === 0) this.deliver(utf8Text(bytes, start, stop));
        else this.pending.push(bytes.subarray(start, stop));
      }
      this.pendingBytes = size;
      if (end === -1) break;
      if (this.discarding) this.sink.oversized(this.pendingBytes, this.limit);
      else if (this.pending.length > 0) this.deliver(utf8Text(Buffer.concat(this.pending)));
      if (this.pending.length > 0) this.pending = []; // a line delivered whole from one chunk held none
      this.pendingBytes = 0;
      this.discarding = false;
      start = end + 1;
    }
  }

  /** The stream ended: a last line without "\n" is still a message. */
  end(): void {
    if (this.pending.length > 0 && !this.discarding) this.deliver(utf8Text(Buffer.concat(this.pending)));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Each line of `text`, lines of whole messages without the final "\n". */
  private deliverLines(text: string): void {
    let from = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", from)) {
      this.deliver(text.slice(from, end));
      from = end + 1;
    }
    this.deliver(from === 0 ? text : text.slice(from));
  }

  private deliver(line: string | number): void {
    if (typeof line === "number") return this.sink.notUtf8(line);
    const text = line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.slice(0, -1) : line;
    // A message starts with "{" or "[": only another line can be blank (trim() scans and may copy it).
    const first = text.charCodeAt(0);
    if (first === OPEN_BRACE || first === OPEN_BRACKET || text.trim() !== "") this.sink.line(text);
  }
}
