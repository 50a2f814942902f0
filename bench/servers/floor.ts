// The floor: a bare Node process that only parses each line and echoes an
// answer, writing once per chunk read. No validation, no protocol: what stdio
// costs by itself.
import { floorResult } from "./echo-floor.js";

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  let out = "";
  let newline: number;
  while ((newline = buffered.indexOf("\n")) !== -1) {
    const message = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    if (message.id === undefined) continue;
    out += JSON.stringify({ jsonrpc: "2.0", id: message.id, result: floorResult(message) }) + "\n";
  }
  if (out !== "") process.stdout.write(out);
});
