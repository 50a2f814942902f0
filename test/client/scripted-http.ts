// A scripted node:http server on 127.0.0.1 for the client's hostile-server
// tests: each request's body is read whole, then handed to the test's handler.
// Every server started is closed after each test.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Starts a server answering with `handler`; resolves with its MCP endpoint's URL. */
export async function serve(handler: Handler): Promise<string> {
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    handler(req, res, body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outcome of a promise, or "pending" when it has not settled within `ms`. */
export const within = (ms: number, work: Promise<unknown>) =>
  Promise.race([
    work.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    sleep(ms).then(() => "pending" as const),
  ]);
