// runtime/server/session-registry.ts: the server's open sessions. It must hold
// what a Set would (members, size, no duplicates, removal in any order), and
// sessions opening and closing (one per POST on a stateless Streamable HTTP
// server) must leave nothing in the old generation: a V8 Set rebuilt its table
// there on every growth and shrink once a full GC had promoted it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SessionRegistry } from "../../runtime/server/session-registry.js";
import { McpServer } from "../../runtime/server/server.js";

const member = (name: string) => ({ name, registrySlot: -1 });
type Member = ReturnType<typeof member>;
/** The members' names, sorted (the registry keeps no order). */
const namesIn = (registry: SessionRegistry<Member>) =>
  registry
    .toArray()
    .map((m) => m.name)
    .sort();

describe("SessionRegistry", () => {
  it("holds each member once, and removes any of them", () => {
    const registry = new SessionRegistry<Member>();
    const [a, b, c, d] = ["a", "b", "c", "d"].map(member) as [Member, Member, Member, Member];
    for (const m of [a, b, c, d, b]) registry.add(m);
    expect(registry.size).toBe(4);
    expect(registry.delete(b)).toBe(true); // from the middle: the last one takes its slot
    expect(registry.delete(b)).toBe(false);
    expect(namesIn(registry)).toEqual(["a", "c", "d"]);
    expect(registry.delete(d)).toBe(true);
    expect(registry.delete(a)).toBe(true);
    expect(registry.toArray()).toEqual([c]);
    expect(registry.delete(member("stranger"))).toBe(false);
    registry.add(a);
    registry.add(b);
    expect(namesIn(registry)).toEqual(["a", "b", "c"]);
    for (const m of registry.toArray()) registry.delete(m);
    expect(registry.size).toBe(0);
    expect(registry.toArray()).toEqual([]);
    expect([a, b, c, d].map((m) => m.registrySlot)).toEqual([-1, -1, -1, -1]);
  });

  it("keeps each member's slot right through random additions and removals", () => {
    const registry = new SessionRegistry<Member>();
    const all = Array.from({ length: 50 }, (_, i) => member(String(i)));
    const inside = new Set<Member>();
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let step = 0; step < 5_000; step++) {
      const m = all[Math.floor(random() * all.length)]!;
      if (random() < 0.5) {
        registry.add(m);
        inside.add(m);
      } else {
        expect(registry.delete(m)).toBe(inside.delete(m));
      }
      expect(registry.size).toBe(inside.size);
    }
    expect(new Set(registry.toArray())).toEqual(inside);
    for (const [slot, m] of registry.toArray().entries()) expect(m.registrySlot).toBe(slot);
  });
});

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
  });

  it("open and close without growing the old generation", () => {
    const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/session-churn.js", import.meta.url));
    if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
    const out = execFileSync(process.execPath, ["--expose-gc", fixture, "20000"], {
      encoding: "utf8",
      timeout: 60_000,
    });
    const { oldGrowthBytes, open } = JSON.parse(out) as { oldGrowthBytes: number; open: number };
    expect(open).toBe(0);
    // With a Set: ~5 MB for these 20,000 sessions (its tables made in the old generation); here a few KB.
    expect(oldGrowthBytes).toBeLessThan(256 * 1024);
  });
});
