// A real redis-server on a loopback port for the tests that share state
// between server processes (Debian's redis-server; .ci/run installs it).
// Stopped (and its files removed) by stop(); restart() brings it back on the
// same port, empty, as after an outage.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server for good (SIGTERM, then SIGKILL after 3 s) and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server as an outage would; restart() brings it back. */
  halt(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
}

const BINARY = process.env["REDIS_SERVER"] ?? "redis-server";

export function redisServerMissing(): string | undefined {
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  return probe.error ? `${BINARY} not found (apt-get install -y redis-server): ${probe.error.message}` : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-redis-"));
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
    const started = spawn(BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s: ${output}`)), 10_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout!.on("data", onData);
      started.stderr!.on("data", onData);
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
    started.stdout!.resume();
    started.stderr!.resume();
  };

  const halt = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    halt,
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await halt();
      await launch();
    },
  };
}
