// Runs the stdio server script named by argv[2] and ends the process as soon
// as the server has written its first line: what bench:stdio --instructions
// counts as a cold start (the process's start to its first answer, under
// callgrind), the same wrapper around the floor and every server.
import { pathToFileURL } from "node:url";

const script = process.argv[2];
if (!script) {
  console.error("usage: node first-answer.js <server script>");
  process.exit(2);
}
const write = process.stdout.write.bind(process.stdout) as (chunk: string | Uint8Array) => boolean;
process.stdout.write = ((chunk: string | Uint8Array) => {
  write(chunk); // a pipe: written before this returns
  process.exit(0);
}) as typeof process.stdout.write;
await import(pathToFileURL(script).href);
