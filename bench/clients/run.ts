// One client's run for bench/client.ts, in a process of its own (so no
// client shares a JIT, a heap or the CPU time measured with another): connect
// to the server script (argv[3]) as the client `argv[2]` names, list the
// tools, warm up, then call the `search` tool sequentially and with `depth` in
// flight, checking every answer; print one line "RESULT <json>" with what the
// client negotiated, requests/s and this process's CPU time per call (the
// client's own cost: the server is another process).
//
//   node dist/bench/clients/run.js <client> <server.js> <warmup> <sequential> <pipelined> <depth>
import { spawn } from "node:child_process";
import { answers, searchArguments, TOOL_NAME } from "./corpus.js";

const CLIENTS = [
  "floor-legacy",
  "mcpgen-legacy",
  "sdk-v1",
  "sdk-v2-default",
  "floor-modern",
  "mcpgen-modern",
  "sdk-v2-auto",
] as const;
export type ClientKind = (typeof CLIENTS)[number];

export interface RunResult {
  /** The protocol version the client ended up speaking, as the client itself reports it. */
  revision: string;
  era: "legacy" | "modern";
  sequential: Phase;
  pipelined: Phase;
}

export interface Phase {
  rps: number;
  /** This process's user + system CPU time over the phase, per call. */
  cpuUsPerCall: number;
}

interface Driven {
  revision: string;
  era: "legacy" | "modern";
  call(i: number, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

const clientInfo = { name: "bench-client", version: "1.0.0" };

/**
 * The floor: spawns the server, writes request lines and matches answers by
 * id with JSON.parse and nothing else (no validation, no timeouts, no
 * protocol beyond the handshake's two messages), the lines of one tick in one
 * write. What a client cannot beat.
 */
async function floor(server: string, era: "legacy" | "modern"): Promise<Driven> {
  const child = spawn(process.execPath, [server], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  // As lean as a client can be: no answer is held past its call (a resolver is boxed and emptied when
  // answered), lines are cut from the bytes as they come, and the lines of one tick leave in one write.
  const pending = new Map<number, { resolve: ((result: unknown) => void) | undefined }>();
  let nextId = 1;
  let buffered: Buffer | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
    let newline: number;
    while ((newline = buffered.indexOf(10)) !== -1) {
      const message = JSON.parse(buffered.toString("utf8", 0, newline)) as {
        id?: number;
        result?: unknown;
        error?: unknown;
      };
      buffered = buffered.subarray(newline + 1);
      const box = message.id !== undefined ? pending.get(message.id) : undefined;
      if (!box?.resolve) continue;
      pending.delete(message.id!);
      const { resolve } = box;
      box.resolve = undefined;
      resolve(message.error !== undefined ? message : message.result);
    }
  });
  let queued: string[] = [];
  const flush = () => {
    child.stdin.write(queued.join(""));
    queued = [];
  };
  const send = (method: string, params: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, { resolve });
      if (queued.push(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}\n`) === 1)
        process.nextTick(flush);
    });
  let revision = "2026-07-28";
  let meta = "";
  if (era === "legacy") {
    const init = (await send(
      "initialize",
      JSON.stringify({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo }),
    )) as { protocolVersion: string };
    revision = init.protocolVersion;
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  } else {
    meta = `,"_meta":${JSON.stringify({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": clientInfo,
    })}`;
  }
  return {
    revision,
    era,
    call: (_i, args) => send("tools/call", `{"name":"${TOOL_NAME}","arguments":${JSON.stringify(args)}${meta}}`),
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

async function mcpgen(server: string, era: "legacy" | "modern"): Promise<Driven> {
  const { Client, StdioClientTransport } = await import("mcpgen/client");
  const client = await Client.connect(
    new StdioClientTransport({ command: process.execPath, args: [server], stderr: "inherit" }),
    { clientInfo, ...(era === "legacy" ? { revision: "2025-11-25" } : {}) },
  );
  await client.listTools();
  return {
    revision: client.revision.protocolVersion,
    era: client.era,
    call: (_i, args) => client.callTool(TOOL_NAME, args),
    close: () => client.close(),
  };
}

async function sdkV1(server: string): Promise<Driven> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client(clientInfo, { capabilities: {} });
  const transport = new StdioClientTransport({ command: process.execPath, args: [server], stderr: "inherit" });
  // The v1 client tells a transport that has this method the version initialize agreed on; stdio has none.
  let negotiated = "unknown";
  (transport as unknown as { setProtocolVersion(v: string): void }).setProtocolVersion = (v) => (negotiated = v);
  await client.connect(transport);
  await client.listTools(); // as a real client does; it also caches each tool's outputSchema validator
  return {
    revision: negotiated,
    era: "legacy",
    call: (_i, args) => client.callTool({ name: TOOL_NAME, arguments: args }),
    close: () => client.close(),
  };
}

async function sdkV2(server: string, mode: "default" | "auto"): Promise<Driven> {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const client = new Client(clientInfo, {
    capabilities: {},
    ...(mode === "auto" ? { versionNegotiation: { mode: "auto" as const } } : {}),
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server], stderr: "inherit" }));
  await client.listTools(); // caches each tool's outputSchema validator (and, modern, its x-mcp-header scan)
  return {
    revision: client.getNegotiatedProtocolVersion() ?? "unknown",
    era: client.getProtocolEra() === "modern" ? "modern" : "legacy",
    call: (_i, args) => client.callTool({ name: TOOL_NAME, arguments: args }),
    close: () => client.close(),
  };
}

function connect(kind: ClientKind, server: string): Promise<Driven> {
  switch (kind) {
    case "floor-legacy":
      return floor(server, "legacy");
    case "floor-modern":
      return floor(server, "modern");
    case "mcpgen-legacy":
      return mcpgen(server, "legacy");
    case "mcpgen-modern":
      return mcpgen(server, "modern");
    case "sdk-v1":
      return sdkV1(server);
    case "sdk-v2-default":
      return sdkV2(server, "default");
    case "sdk-v2-auto":
      return sdkV2(server, "auto");
  }
}

/** `total` calls with at most `depth` in flight, each answer checked; ids (queries) from `first` on. */
async function drive(client: Driven, total: number, depth: number, first: number): Promise<Phase> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = first + next++;
      const args = searchArguments(i);
      const result = await client.call(i, args);
      if (!answers(result, args["query"] as string))
        throw new Error(`call ${i}: unexpected answer ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
  const cpu = process.cpuUsage();
  const began = performance.now();
  await Promise.all(Array.from({ length: Math.min(depth, total) }, worker));
  const seconds = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  return { rps: total / seconds, cpuUsPerCall: (used.user + used.system) / total };
}

async function main(): Promise<void> {
  const [kind, server, warmup, sequential, pipelined, depth] = process.argv.slice(2);
  if (!CLIENTS.includes(kind as ClientKind) || !server)
    throw new Error(`usage: run.js <${CLIENTS.join("|")}> <server.js> ...`);
  const client = await connect(kind as ClientKind, server);
  await drive(client, Number(warmup), Number(depth), 1);
  await drive(client, Math.min(200, Number(warmup)), 1, 1_000_000);
  const seq = await drive(client, Number(sequential), 1, 2_000_000);
  const pipe = await drive(client, Number(pipelined), Number(depth), 3_000_000);
  await client.close();
  const result: RunResult = { revision: client.revision, era: client.era, sequential: seq, pipelined: pipe };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${process.argv[2]}: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
