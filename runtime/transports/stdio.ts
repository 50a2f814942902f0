// The stdio transport (basic/transports#stdio): newline-delimited JSON-RPC on
// stdin and stdout. Framing only; every protocol decision is the session's.
// stdout carries nothing but MCP messages: while the server runs, anything
// else written to process.stdout (a stray console.log) goes to stderr.
import type { McpServer } from "../server/mcp-server.js";
import type { Session } from "../server/session/session.js";
import { LineFramer } from "./lines.js";

/** What the transport needs of its input: a byte stream (process.stdin, a socket, a PassThrough). */
export interface InputStream {
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  /** Stops and restarts the data events while output is full (a Readable has both). */
  pause?(): unknown;
  resume?(): unknown;
}

/** What the transport needs of its output. */
export interface OutputStream {
  write(chunk: string): boolean;
  /** Bytes written and not yet taken by the system (a Writable has it). */
  readonly writableLength?: number;
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  once(event: "drain", listener: () => void): unknown;
}

export interface StdioOptions {
  /** Default: process.stdin. */
  input?: InputStream;
  /** Default: process.stdout. */
  output?: OutputStream;
  /**
   * Longest accepted line, in bytes. A longer one is discarded as it streams
   * (never buffered whole) and answered with an error. Default 4 MiB.
   */
  maxMessageBytes?: number;
  /** After input ends, how long requests in flight may take to answer before the connection closes. Default 5000 ms. */
  graceMs?: number;
  /**
   * When input ends or output breaks, end the process (exit code 0 after input
   * ends, 1 on a broken pipe). Default true when serving process.stdin/stdout.
   */
  exitProcess?: boolean;
}

export interface StdioConnection {
  readonly session: Session;
  /** Resolves when the connection has closed (input ended, output broke, or close() was called). */
  readonly closed: Promise<void>;
  close(): void;
}

/** Serves `server` on stdin/stdout until stdin ends. */
export function serveStdio(server: McpServer, options: StdioOptions = {}): StdioConnection {
  const input: InputStream = options.input ?? process.stdin;
  const output: OutputStream = options.output ?? process.stdout;
  const limit = options.maxMessageBytes ?? 4 * 1024 * 1024;
  const graceMs = options.graceMs ?? 5000;
  const ownsProcess =
    options.exitProcess ?? (input === (process.stdin as unknown) && output === (process.stdout as unknown));

  // Our own writes go through the original write; everything else written to
  // process.stdout is diverted to stderr while we serve.
  const write = output.write.bind(output) as (chunk: string) => boolean;
  const restoreStdout = output === (process.stdout as unknown) ? divertStdout() : () => {};

  // Replies produced while a chunk of input is being read leave in one write
  // at the end of the chunk; later ones (async handlers) in one write per tick.
  let queued: string[] = [];
  let reading = false;
  let flushScheduled = false;
  // Backpressure: while the client does not read stdout, stop reading stdin, or the replies to
  // what it keeps sending would pile up in this process without bound.
  let waitingForDrain = false;
  const onDrain = () => {
    waitingForDrain = false;
    if (!closed) input.resume?.();
  };
  const flush = () => {
    flushScheduled = false;
    if (queued.length === 0 || closed) return;
    // One flat string, its last newline joined too: a "\n" added after the join made a second
    // string of two parts, which the write copied whole once more to flatten it.
    queued.push("");
    const text = queued.join("\n");
    queued = [];
    // A write over the high-water mark returns false even when the system took it all at once:
    // what is still queued after it says whether the client is behind.
    if (!write(text) && (output.writableLength ?? 1) > 0 && !waitingForDrain && input.pause) {
      waitingForDrain = true;
      input.pause();
      output.once("drain", onDrain);
    }
  };
  const send = (json: string) => {
    queued.push(json);
    if (!reading && !flushScheduled) {
      flushScheduled = true;
      queueMicrotask(flush);
    }
  };

  const session = server.connect(send);

  const framer = new LineFramer(limit, {
    line: (text) => session.receive(text),
    oversized: (bytes, max) => session.receiveOversized(bytes, max),
    notUtf8: (offset) => session.receiveNotUtf8(offset),
  });
  const onData = (chunk: Buffer | string) => {
    reading = true;
    try {
      framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    } finally {
      reading = false;
      flush();
    }
  };

  let closed = false;
  let resolveClosed!: () => void;
  const closedPromise = new Promise<void>((resolve) => (resolveClosed = resolve));
  const close = (exitCode?: number, broken = false) => {
    if (closed) return;
    if (!broken) flush();
    closed = true;
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("error", onInputError);
    output.off("error", onOutputError);
    output.off("drain", onDrain);
    session.close();
    restoreStdout();
    resolveClosed();
    if (ownsProcess && exitCode !== undefined) {
      if (exitCode === 0) write("") ? process.exit(0) : output.once("drain", () => process.exit(0));
      else process.exit(exitCode);
    }
  };
  const onEnd = () => {
    framer.end();
    // The client is done sending (basic/lifecycle#stdio): answer what is in
    // flight, for at most graceMs, then close.
    const grace = setTimeout(() => close(0), graceMs);
    void session.inputEnded().then(() => {
      clearTimeout(grace);
      close(0);
    });
  };
  const onInputError = (error: Error) => {
    process.stderr.write(`mcpgen: cannot read stdin: ${error.message}\n`);
    close(1);
  };
  const onOutputError = (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === "EPIPE"
        ? "stdout is closed (EPIPE): the client went away"
        : `cannot write stdout: ${error.message}`;
    process.stderr.write(`mcpgen: ${reason}; stopping the server\n`);
    close(1, true);
  };

  input.on("data", onData);
  input.on("end", onEnd);
  input.on("error", onInputError);
  output.on("error", onOutputError);

  return {
    session,
    closed: closedPromise,
    close: () => close(),
  };
}

/** Sends what others write to process.stdout to stderr; returns the undo. */
function divertStdout(): () => void {
  const stdout = process.stdout;
  const own = Object.hasOwn(stdout, "write");
  const original = stdout.write;
  stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  return () => {
    if (own) stdout.write = original;
    else delete (stdout as { write?: unknown }).write;
  };
}
