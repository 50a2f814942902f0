#!/usr/bin/env node
// Packs the two published packages from a built checkout (after `npm run
// generate`) into <out-dir>: mcpgen (the runtime: generated revisions and
// extensions, runtime, server, transports, client; ajv its only dependency)
// and mcpgen-generator (the CLI, depending on mcpgen). Each package's manifest
// is packages/<name>/package.json; this script stages that manifest with the
// files it ships and runs `npm pack` there, so the checkout keeps one dist/
// and one development manifest. It refuses a manifest whose version or
// dependency versions differ from the root package.json's (the versions the
// tests ran with), so the two cannot drift. The runtime's JavaScript is
// bundled (packages/bundle.mjs); its .d.ts files are tsc's, at the same paths.
//
//   node packages/pack.mjs <out-dir>     prints the two tarballs' paths, one per line
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleRuntime } from "./bundle.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2];
if (!out) fail("usage: node packages/pack.mjs <out-dir>");

const manifest = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
const rootManifest = manifest("package.json");

/** What each package ships: [source under the checkout, destination in the package, keep(file)]. */
const packages = [
  {
    dir: "packages/runtime",
    // Declarations as tsc wrote them; the JavaScript is the bundle written beside them.
    files: [
      ["dist/generated", "dist/generated", (file) => file.endsWith(".d.ts")],
      ["dist/runtime", "dist/runtime", (file) => file.endsWith(".d.ts")],
    ],
    bundle: true,
  },
  {
    dir: "packages/generator",
    files: [
      ["bin/mcpgen.js", "bin/mcpgen.js", () => true],
      // The CLI is a program, not a library: its JavaScript only.
      ["dist/generator", "dist/generator", (file) => file.endsWith(".js")],
      ["spec/revisions.json", "spec/revisions.json", () => true],
      // The project's transcriptions of extensions whose upstream publishes no schema.ts; the lock names them.
      ["spec/extensions", "spec/extensions", () => true],
    ],
  },
];

for (const required of ["dist/generated/index.js", "dist/runtime/client/index.js", "dist/generator/cli/main.js"]) {
  if (!existsSync(join(root, required))) fail(`${required} is missing: run \`npm run generate\` first`);
}

const stage = resolve(out, "stage");
rmSync(stage, { recursive: true, force: true });
const tarballs = [];
for (const { dir, files, bundle } of packages) {
  const pkg = manifest(join(dir, "package.json"));
  checkVersions(dir, pkg);
  const into = join(stage, pkg.name);
  mkdirSync(into, { recursive: true });
  writeFileSync(join(into, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  if (existsSync(join(root, dir, "README.md"))) cpSync(join(root, dir, "README.md"), join(into, "README.md"));
  for (const [from, to, keep] of files) {
    const source = join(root, from);
    if (!existsSync(source)) fail(`${from} is missing: run \`npm run generate\` first`);
    cpSync(source, join(into, to), {
      recursive: true,
      filter: (path) => !existsSync(path) || isDirectory(path) || keep(path),
    });
  }
  if (bundle) await bundleRuntime(pkg, into);
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", resolve(out)], {
      cwd: into,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  tarballs.push(resolve(out, packed.filename));
}
rmSync(stage, { recursive: true, force: true });
process.stdout.write(tarballs.join("\n") + "\n");

function isDirectory(path) {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

function checkVersions(dir, pkg) {
  const where = relative(root, join(root, dir, "package.json"));
  // The checkout's exports are the ones its tests resolve (package self-reference).
  if (pkg.name === rootManifest.name && JSON.stringify(pkg.exports) !== JSON.stringify(rootManifest.exports))
    fail(`${where}: exports differ from package.json's`);
  if (pkg.version !== rootManifest.version)
    fail(`${where}: version ${pkg.version} differs from package.json's ${rootManifest.version}`);
  for (const [name, version] of Object.entries(pkg.dependencies ?? {})) {
    const expected = name === "mcpgen" ? rootManifest.version : rootManifest.dependencies?.[name];
    if (expected === undefined) fail(`${where}: dependency ${name} is not a dependency of package.json`);
    if (version !== expected) fail(`${where}: dependency ${name}@${version} differs from package.json's ${expected}`);
  }
  for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
    const expected = rootManifest.peerDependencies?.[name];
    if (expected !== undefined && range !== expected)
      fail(`${where}: peer dependency ${name}@${range} differs from package.json's ${expected}`);
  }
}

function fail(message) {
  process.stderr.write(`pack: ${message}\n`);
  process.exit(2);
}
