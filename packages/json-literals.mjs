// Large data literals as JSON.parse of a string, for the runtime bundle.
//
// Why: V8 compiles an object literal into bytecode that builds it, and parses
// all of it as JavaScript when its module loads; a string is only scanned, and
// JSON.parse builds the same value faster. V8's own advice is to do this for
// literals of 10 kB and more ("The cost of JavaScript in 2019", v8.dev). The
// generated shims' shapes (about 100 kB of nested literals per revision) were
// a large part of what a legacy session loads on its first message. The
// generated sources keep their readable, type-checked literals; only the
// package's JavaScript changes, and only where the value is plain JSON data.
//
// A literal qualifies when it is built only of object literals with plain keys,
// array literals without holes or spreads, strings, finite numbers (negative
// ones too), booleans and null: then JSON.parse gives the same value, with the
// same key order. Anything else (an identifier, a call, a computed or
// "__proto__" key, a method, undefined) leaves the literal as written, and the
// search goes on inside it for qualifying parts.

/** Literals shorter than this (in source characters) stay as they are. */
export const MIN_LITERAL_LENGTH = 4096;

/**
 * Rewrites every qualifying literal of at least `minLength` source characters
 * in `code` (whose ESTree is `program`, with UTF-16 `start`/`end` offsets) as
 * `JSON.parse("...")`. Returns the new code, or undefined when nothing qualified.
 */
export function jsonParseLiterals(code, program, minLength = MIN_LITERAL_LENGTH) {
  const replacements = [];
  const visit = (node) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if ((node.type === "ObjectExpression" || node.type === "ArrayExpression") && node.end - node.start >= minLength) {
      const value = plainValue(node);
      if (value !== NOT_PLAIN) {
        replacements.push({
          start: node.start,
          end: node.end,
          text: `JSON.parse(${JSON.stringify(JSON.stringify(value))})`,
        });
        return;
      }
    }
    for (const key of Object.keys(node)) {
      if (key === "type" || key === "start" || key === "end" || key === "loc" || key === "range") continue;
      visit(node[key]);
    }
  };
  visit(program);
  if (replacements.length === 0) return undefined;
  replacements.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const r of replacements) {
    out += code.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + code.slice(at);
}

const NOT_PLAIN = Symbol("not plain JSON data");

/** The value of a literal made only of JSON data, else NOT_PLAIN. */
function plainValue(node) {
  switch (node.type) {
    case "ObjectExpression": {
      const out = {};
      for (const property of node.properties) {
        if (property.type !== "Property" || property.kind !== "init" || property.computed || property.method)
          return NOT_PLAIN;
        if (property.shorthand) return NOT_PLAIN;
        const key = keyOf(property.key);
        // In a literal "__proto__: x" sets the prototype; JSON.parse makes an own property.
        if (key === undefined || key === "__proto__" || Object.prototype.hasOwnProperty.call(out, key))
          return NOT_PLAIN;
        const value = plainValue(property.value);
        if (value === NOT_PLAIN) return NOT_PLAIN;
        out[key] = value;
      }
      return out;
    }
    case "ArrayExpression": {
      const out = [];
      for (const element of node.elements) {
        if (element === null || element.type === "SpreadElement") return NOT_PLAIN;
        const value = plainValue(element);
        if (value === NOT_PLAIN) return NOT_PLAIN;
        out.push(value);
      }
      return out;
    }
    case "Literal":
      return literalValue(node);
    case "UnaryExpression": {
      if (node.operator !== "-" || node.argument.type !== "Literal") return NOT_PLAIN;
      const value = literalValue(node.argument);
      // -0 would come back from JSON as 0.
      return typeof value === "number" && value !== 0 ? -value : NOT_PLAIN;
    }
    default:
      return NOT_PLAIN;
  }
}

function literalValue(node) {
  const value = node.value;
  if (value === null) return node.raw === "null" ? null : NOT_PLAIN; // a regular expression or bigint has value null too
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
  return NOT_PLAIN;
}

function keyOf(key) {
  if (key.type === "Identifier") return key.name;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  // A numeric key becomes a string key in both forms, but JSON.parse orders integer-like keys first just
  // as the literal does; keep it simple and leave such literals alone.
  return undefined;
}

/** A rolldown plugin applying jsonParseLiterals to the modules whose id `include(id)` accepts. */
export function jsonLiteralsPlugin(include, minLength = MIN_LITERAL_LENGTH) {
  return {
    name: "json-literals",
    transform(code, id) {
      if (!include(id)) return null;
      const rewritten = jsonParseLiterals(code, this.parse(code), minLength);
      return rewritten === undefined ? null : { code: rewritten, map: null };
    },
  };
}
