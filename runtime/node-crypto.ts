// node:crypto, loaded on its first use: importing it takes several milliseconds
// of a process's start, and a server that never makes a session id, a task id
// or a requestState never needs it.
import { builtinModule } from "./builtin.js";

type NodeCrypto = typeof import("node:crypto");

let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  return (loaded ??= builtinModule<NodeCrypto>("node:crypto"));
}
