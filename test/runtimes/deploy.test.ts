// docs/runtimes.md's one server deployed on each platform, each file run as
// written from the built package: examples/deploy/node (node), examples/deploy/bun
// (bun), examples/deploy/deno (deno, with the permissions the page names) and
// examples/deploy/worker and examples/deploy/worker-durable-object (bundled and
// served by miniflare with the settings of the page's wrangler.toml blocks),
// each on a loopback port, all serving examples/deploy/server. The official SDK v2 client
// pinned to 2026-07-28 calls get_forecast on each; the SDK v1 client (a 2025
// session) where the page says 2025 sessions are served. Each is stopped after.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { snippet } from "../docs/pages.js";
import { projectRoot } from "../helpers.js";
import { callTool, type SdkClient } from "./clients.js";
import { runtimeBin } from "./installed.js";
import { startPrinting, stopProcess } from "./processes.js";
import { startWorker } from "./workerd.js";

const file = (name: string) => join(projectRoot, "dist", "examples", "deploy", `${name}.js`);
const PRINTED = /^weather server: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m;

/** What a wrangler.toml of docs/runtimes.md tells Workers: the entry, the runtime's settings, the Durable Objects. */
function wranglerSettings(block: string) {
  const toml = snippet("docs/runtimes.md", block);
  const value = (key: string) => new RegExp(`^${key} = (.+)$`, "m").exec(toml)?.[1];
  const bound = /^\[\[durable_objects\.bindings\]\]\nname = "(\w+)"\nclass_name = "(\w+)"$/m.exec(toml);
  return {
    main: JSON.parse(value("main") ?? "null") as string,
    options: {
      compatibilityDate: JSON.parse(value("compatibility_date") ?? "null") as string,
      compatibilityFlags: JSON.parse(value("compatibility_flags") ?? "[]") as string[],
      ...(bound ? { durableObjects: { [bound[1]!]: bound[2]! } } : {}),
    },
  };
}

/** A Worker file of examples/deploy served with the settings of `block`, which must name it as its entry. */
async function startDeployedWorker(name: string, block: string) {
  const { main, options } = wranglerSettings(block);
  expect(main).toBe(`src/${name}.ts`);
  return startWorker(file(name), join(projectRoot, "dist", "runtimes-test", `deploy-${name}`), options);
}

/** How each platform starts its file, and which clients it serves. */
const PLATFORMS: Record<string, { start(): Promise<{ url: string; stop(): Promise<unknown> }>; clients: SdkClient[] }> =
  {
    node: {
      start: async () => {
        const { child, url } = await startPrinting(process.execPath, [file("node")], PRINTED, {
          ...process.env,
          PORT: "0",
        });
        return { url, stop: async () => expect(await stopProcess(child)).toBe(0) };
      },
      clients: ["v2 pinned to 2026-07-28", "v1"],
    },
    bun: {
      start: async () => {
        const { child, url } = await startPrinting(runtimeBin("bun"), [file("bun")], PRINTED, {
          ...process.env,
          PORT: "0",
        });
        return { url, stop: async () => expect(await stopProcess(child)).toBe(0) };
      },
      clients: ["v2 pinned to 2026-07-28", "v1"],
    },
    deno: {
      start: async () => {
        const args = ["run", "--allow-net=127.0.0.1", "--allow-env=PORT", file("deno")];
        const { child, url } = await startPrinting(runtimeBin("deno"), args, PRINTED, { ...process.env, PORT: "0" });
        return { url, stop: async () => expect(await stopProcess(child)).toBe(0) };
      },
      clients: ["v2 pinned to 2026-07-28", "v1"],
    },
    worker: {
      start: () => startDeployedWorker("worker", "wrangler"),
      clients: ["v2 pinned to 2026-07-28"],
    },
    "worker with a Durable Object": {
      start: () => startDeployedWorker("worker-durable-object", "wrangler-durable-object"),
      clients: ["v2 pinned to 2026-07-28", "v1"],
    },
  };

describe.each(Object.keys(PLATFORMS))("examples/deploy on %s", (name) => {
  const { start, clients } = PLATFORMS[name]!;
  let served: { url: string; stop(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    served = await start();
  }, 360_000);
  afterAll(async () => await served?.stop());

  test.each(clients)("the official SDK %s client calls get_forecast", async (which) => {
    expect(await callTool(which, served!.url, "get_forecast", { city: "Lisbon", days: 2 })).toEqual({
      revision: which === "v1" ? undefined : "2026-07-28",
      server: "weather",
      text: "Lisbon: sunny for the next 2 days",
    });
  });
});
