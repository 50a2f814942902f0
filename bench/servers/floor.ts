// The floor: a bare Node process that only parses each line and echoes an
// answer (initialize gets a minimal result, tools/call its text back), writing
// once per chunk read. No validation, no protocol: what stdio costs by itself.
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
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "floor", version: "1" },
          }
        : message.method === "tools/call"
          ? { content: [{ type: "text", text: message.params.arguments.text }] }
          : {};
    out += JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\n";
  }
  if (out !== "") process.stdout.write(out);
});
