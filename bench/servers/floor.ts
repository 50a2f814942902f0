// The floor: a bare Node process that only parses each line and echoes an
// answer, writing once per chunk read. No validation, no protocol: what stdio
// costs by itself.
import { floorReader } from "./echo-floor.js";

process.stdin.setEncoding("utf8");
process.stdin.on(
  "data",
  floorReader((text) => process.stdout.write(text)),
);
