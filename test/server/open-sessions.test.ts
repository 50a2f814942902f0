// The server's open sessions: what connected and did not close.
import { describe, expect, it } from "vitest";
import { McpServer } from "../../runtime/server/mcp-server.js";

describe("the server's open sessions", () => {
  it("are what connected and did not close; server.sessions is a snapshot of them", () => {
    const server = new McpServer({ name: "registry", version: "1.0.0" }, { logger: () => {} });
    const sessions = [0, 1, 2].map(() => server.connect(() => {}));
    const seen = server.sessions;
    expect(seen.size).toBe(3);
    sessions[1]!.close();
    expect(server.sessions).toEqual(new Set([sessions[0], sessions[2]]));
    expect(seen.size).toBe(3); // taken before the close
    server.close();
    expect(server.sessions.size).toBe(0);
    expect(sessions.every((s) => s.isClosed)).toBe(true);
  });
});
