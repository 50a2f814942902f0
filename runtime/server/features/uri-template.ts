// RFC 6570 URI templates, as resource templates use them (server/resources#resource-templates):
// parsing, expansion (levels 1-4) and the reverse, matching a URI against a
// template to extract its variables. Matching is inherently ambiguous for some
// templates (two adjacent reserved expansions); it takes the first split the
// regular expression finds.

export type UriVariables = Record<string, string | string[]>;

type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  /** The prefix modifier (`{var:3}`), if any. */
  readonly prefix?: number;
}

interface Expression {
  readonly operator: Operator;
  readonly variables: readonly VariableSpec[];
}

// RFC 6570 §3.2.1: per operator, what starts the expansion, what separates
// values, whether names are written (named), what an empty value looks like,
// and whether reserved characters pass unencoded.
const RULES: Record<Operator, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  "": { first: "", sep: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifEmpty: "=", reserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

export class UriTemplateError extends Error {
  override name = "UriTemplateError";
}

export class UriTemplate {
  /** The template's variable names, in order of first appearance. */
  readonly variableNames: readonly string[];
  private readonly parts: readonly (string | Expression)[];
  private readonly matcher: RegExp;
  /** For each capture group of `matcher`: the expression and variable it belongs to. */
  private readonly groups: readonly { expression: Expression; variable: VariableSpec | null }[];

  constructor(readonly template: string) {
    this.parts = parse(template);
    const names: string[] = [];
    for (const part of this.parts)
      if (typeof part !== "string") for (const v of part.variables) if (!names.includes(v.name)) names.push(v.name);
    this.variableNames = names;
    const groups: { expression: Expression; variable: VariableSpec | null }[] = [];
    const source = this.parts
      .map((part) => (typeof part === "string" ? escapeRegExp(part) : expressionPattern(part, groups)))
      .join("");
    this.matcher = new RegExp(`^${source}$`);
    this.groups = groups;
  }

  /** Expands the template with `variables` (RFC 6570 §3). */
  expand(variables: UriVariables): string {
    return this.parts.map((part) => (typeof part === "string" ? part : expandExpression(part, variables))).join("");
  }

  /** The variables a URI gives the template, or undefined when it does not match. */
  match(uri: string): UriVariables | undefined {
    const found = this.matcher.exec(uri);
    if (!found) return undefined;
    const variables: UriVariables = {};
    this.groups.forEach(({ expression, variable }, i) => {
      const text = found[i + 1];
      if (text === undefined) return;
      if (variable === null) {
        // A query expression ({?a,b} or {&a,b}) is captured whole and read as pairs.
        readQuery(text.slice(1), expression, variables);
      } else if (variable.explode) {
        const sep = RULES[expression.operator].sep;
        const items = (expression.operator === "/" ? text.slice(1) : text).split(sep).map(decode);
        variables[variable.name] = items;
      } else {
        variables[variable.name] = decode(text);
      }
    });
    return variables;
  }
}

function parse(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    const close = template.indexOf("}", i);
    if (close !== -1 && (open === -1 || close < open))
      throw new UriTemplateError(`unmatched "}" at offset ${close} in URI template ${JSON.stringify(template)}`);
    if (open === -1) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    if (close === -1)
      throw new UriTemplateError(`unclosed "{" at offset ${open} in URI template ${JSON.stringify(template)}`);
    parts.push(parseExpression(template.slice(open + 1, close), template, open));
    i = close + 1;
  }
  return parts;
}

function parseExpression(body: string, template: string, offset: number): Expression {
  const where = `at offset ${offset} in URI template ${JSON.stringify(template)}`;
  const first = body[0] ?? "";
  const operator = ("+#./;?&".includes(first) && first !== "" ? first : "") as Operator;
  if ("=,!@|".includes(first) && first !== "") throw new UriTemplateError(`reserved operator "${first}" ${where}`);
  const list = operator === "" ? body : body.slice(1);
  if (list === "") throw new UriTemplateError(`empty expression ${where}`);
  const variables = list.split(",").map((spec): VariableSpec => {
    const exploded = spec.endsWith("*");
    const [name = "", prefix] = (exploded ? spec.slice(0, -1) : spec).split(":");
    if (!VARNAME.test(name)) throw new UriTemplateError(`invalid variable name ${JSON.stringify(name)} ${where}`);
    if (prefix === undefined) return { name, explode: exploded };
    if (exploded || !/^[1-9][0-9]{0,3}$/.test(prefix))
      throw new UriTemplateError(`invalid prefix modifier ${JSON.stringify(spec)} ${where}`);
    return { name, explode: false, prefix: Number(prefix) };
  });
  return { operator, variables };
}

function expressionPattern(
  expression: Expression,
  groups: { expression: Expression; variable: VariableSpec | null }[],
): string {
  const { operator, variables } = expression;
  if (operator === "?" || operator === "&") {
    groups.push({ expression, variable: null });
    return `(${escapeRegExp(operator)}[^#]*)?`;
  }
  const rule = RULES[operator];
  // What one value may contain: reserved expansion lets "/" through; the others stop at delimiters.
  // Lazy, so that an optional expression after it gets its share ({name}{.ext} on "logo.png").
  const value = rule.reserved ? (operator === "#" ? ".*?" : "[^?#]*?") : `[^/?#${escapeClass(rule.sep)},]*?`;
  return variables
    .map((variable, index) => {
      groups.push({ expression, variable });
      const lead = escapeRegExp(index === 0 ? rule.first : rule.sep);
      const named = rule.named ? `${escapeRegExp(variable.name)}=?` : "";
      const body = variable.explode
        ? operator === "/"
          ? `((?:/[^/?#]*)+?)`
          : `(${value}(?:${escapeRegExp(rule.sep)}${value})*)`
        : `(${value})`;
      if (variable.explode && operator === "/") return `${body}?`;
      return `(?:${lead}${named}${body})?`;
    })
    .join("");
}

function readQuery(query: string, expression: Expression, variables: UriVariables): void {
  const wanted = new Map(expression.variables.map((v) => [v.name, v]));
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decode(pair.slice(eq + 1));
    const spec = wanted.get(name);
    if (!spec) continue;
    if (spec.explode) {
      const list = variables[name];
      variables[name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      variables[name] = value.includes(",") ? value.split(",") : value;
    }
  }
}

function expandExpression(expression: Expression, variables: UriVariables): string {
  const rule = RULES[expression.operator];
  const encode = (text: string) => (rule.reserved ? encodeReserved(text) : encodeUnreserved(text));
  const pieces: string[] = [];
  for (const spec of expression.variables) {
    const value = variables[spec.name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    const prefix = (name: string, text: string) =>
      rule.named ? `${name}${text === "" ? rule.ifEmpty : `=${text}`}` : text;
    if (typeof value === "string") {
      const cut = spec.prefix === undefined ? value : [...value].slice(0, spec.prefix).join("");
      pieces.push(prefix(spec.name, encode(cut)));
    } else if (spec.explode) {
      pieces.push(value.map((item) => prefix(spec.name, encode(item))).join(rule.sep));
    } else {
      pieces.push(prefix(spec.name, value.map(encode).join(",")));
    }
  }
  return pieces.length === 0 ? "" : rule.first + pieces.join(rule.sep);
}

function encodeUnreserved(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function encodeReserved(text: string): string {
  // Reserved and unreserved characters pass; existing pct-encodings are kept.
  return text
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((chunk, i) => (i % 2 === 1 ? chunk : encodeURI(chunk).replace(/%5B/g, "[").replace(/%5D/g, "]")))
    .join("");
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function escapeClass(text: string): string {
  return text.replace(/[\]\\^-]/g, "\\$&");
}
