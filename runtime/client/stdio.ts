// The client side of the stdio transport (basic/transports#stdio): the client
// launches the server as a subprocess and speaks newline-delimited JSON-RPC on
// its stdin and stdout. Shutdown follows basic/lifecycle#stdio: close the
// server's stdin, wait for it to exit, then SIGTERM, then SIGKILL.
import { spawn, type ChildProcess } from "node:child_process";
import { LineFramer } from "../transports/lines.js";
import { ConnectionClosedError } from "./errors.js";
import type { ClientTransport, SendContext, TransportSink } from "./transport.js";

export interface StdioClientOptions {
  command: string;
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * The server's stderr: "pipe" (default) keeps its last 8 KB for error
   * messages and passes each chunk to onStderr; "inherit" writes it to this
   * process's stderr; "ignore" drops it.
   */
  stderr?: "pipe" | "inherit" | "ignore";
  onStderr?: (chunk: string) => void;
  /** The longest line accepted from the server, in bytes (default 32 MiB); a longer one is dropped and reported. */
  maxMessageBytes?: number;
  /** How long close() waits after closing stdin, and again after SIGTERM (default 2000 ms each). */
  shutdownGraceMs?: number;
}

const STDERR_TAIL = 8 * 1024;

export class StdioClientTransport implements ClientTransport {
  readonly target: string;
  private child: ChildProcess | undefined;
  private stderrTail = "";
  private exited: Promise<void> = Promise.resolve();
  private closing = false;
  private drained: Promise<void> | undefined;
  private queued: string[] = [];

  constructor(private readonly options: StdioClientOptions) {
    this.target = [options.command, ...(options.args ?? [])].join(" ");
  }

  /** The server process's id, while it runs. */
  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  async start(sink: TransportSink): Promise<void> {
    const stderr = this.options.stderr ?? "pipe";
    const child = spawn(this.options.command, [...(this.options.args ?? [])], {
      stdio: ["pipe", "pipe", stderr],
      env: this.options.env ?? process.env,
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
    });
    this.child = child;
    // A line dropped (too long, not UTF-8) may have answered a request: lost, where the sink can tell.
    const dropped = (error: Error) => (sink.lost ? sink.lost(error) : sink.problem(error));
    const framer = new LineFramer(this.options.maxMessageBytes ?? 32 * 1024 * 1024, {
      line: (text) => sink.message(text),
      oversized: (bytes, limit) =>
        dropped(
          new Error(`${this.target} sent a line of ${bytes} bytes, more than the ${limit} accepted; it was dropped`),
        ),
      notUtf8: (offset) =>
        dropped(new Error(`${this.target} sent a line that is not UTF-8 (at byte offset ${offset}); it was dropped`)),
    });
    child.stdout!.on("data", (chunk: Buffer) => framer.push(chunk));
    child.stdout!.on("end", () => framer.end());
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
      this.options.onStderr?.(chunk);
    });
    // A server that exits while we write gets EPIPE: that is its exit, reported below.
    child.stdin!.on("error", () => {});
    this.exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const tail = this.stderrTail.trim();
        sink.closed(
          new ConnectionClosedError(
            this.closing
              ? `the connection to ${this.target} was closed`
              : `the server ${this.target} ${how}${tail ? `; its stderr ended with: ${tail.slice(-500)}` : ""}`,
          ),
        );
        resolve();
      });
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) =>
        reject(new ConnectionClosedError(`cannot start ${this.target}: ${error.message}`)),
      );
    });
  }

  async send(text: string, _context: SendContext): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable)
      throw new ConnectionClosedError(`the server ${this.target} is not running`);
    // Messages sent in one tick leave joined in one write: with many requests in flight, one
    // string and one syscall.
    if (this.queued.push(text) === 1) process.nextTick(this.flush);
    // Past the high-water mark every sender waits for the same drain (one listener, not one each).
    if (this.drained) await this.drained;
  }

  private readonly flush = (): void => {
    const stdin = this.child?.stdin;
    // One flat string, its last newline joined too (stdio.ts in transports says why).
    this.queued.push("");
    const text = this.queued.join("\n");
    this.queued = [];
    if (!stdin || stdin.destroyed || !stdin.writable) return; // the exit is reported by the child's exit event
    if (!stdin.write(text))
      this.drained ??= new Promise<void>((resolve) =>
        stdin.once("drain", () => {
          this.drained = undefined;
          resolve();
        }),
      );
  };

  /** basic/lifecycle#stdio shutdown: stdin closed, then SIGTERM, then SIGKILL, each after the grace period. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.closing = true;
    const grace = this.options.shutdownGraceMs ?? 2000;
    const exitedWithin = (ms: number) =>
      Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
    if (this.queued.length > 0) this.flush(); // what was sent in this tick leaves before stdin closes
    child.stdin!.end();
    if (await exitedWithin(grace)) return;
    child.kill("SIGTERM");
    if (await exitedWithin(grace)) return;
    child.kill("SIGKILL");
    await this.exited;
  }
}
