// node:crypto, loaded on its first use. Importing it costs about 7 ms of a
// process's start on Node 20 (measured: a fresh `import("node:crypto")`), more
// than the rest of a stdio server's own start-up work, and a server that never
// makes a session id, a task id or a requestState never needs it.
import { createRequire } from "node:module";

type NodeCrypto = typeof import("node:crypto");

let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)("node:crypto") as NodeCrypto);
}
