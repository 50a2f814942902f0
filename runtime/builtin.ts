// Node's built-in modules, got by name when first needed rather than imported:
// a module that imports node:* does not load where there is no such module,
// and the fetch handler's graph (mcpgen/fetch) must load on any runtime.
// process.getBuiltinModule is there on Node 20.16+, Bun, Deno and workerd
// with nodejs_compat.

/** The built-in module `name` ("node:crypto"), or an error naming what provides it. */
export function builtinModule<Module>(name: string): Module {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== "function")
    throw new Error(
      `mcpgen needs ${name} here: run on Node.js 20.16 or later, Bun, Deno, or Cloudflare Workers with the nodejs_compat flag`,
    );
  return get(name) as Module;
}
