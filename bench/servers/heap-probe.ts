// Preloaded into a benchmark server (node --expose-gc --import heap-probe.js
// server.js) by bench/memory.ts: on SIGUSR2, two full collections, then one
// line on stderr, "HEAP {heapUsed, external, arrayBuffers, rss}" (bytes), so
// that what the server still holds is measured without garbage in it.
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("heap-probe: run the server with --expose-gc");

process.on("SIGUSR2", () => {
  collect();
  collect();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  process.stderr.write(`HEAP ${JSON.stringify({ heapUsed, external, arrayBuffers, rss })}\n`);
});
