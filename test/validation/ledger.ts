// Reviewed ledger of the places where upstream schema.json contradicts
// schema.ts, by the kind of defect, with the places of each pinned revision.
// schema.ts wins: mcpgen's validators follow it, and the differential test
// excuses a disagreement with ajv only when it stands at (or inside) a place of
// a class: ajv's error there (classes where ajv rejects), or, where mcpgen
// rejects, ajv agreeing once the place is read as schema.ts says.
//
// Each class states what the two files say and cites upstream. For a pinned
// revision the places are listed here; the test re-checks every one against
// both files (the schema.json node must say what the class claims, the
// schema.ts type the opposite) and fails on a place the corpus no longer
// reaches, so the ledger cannot go stale. For a revision never seen before
// (test/history), the places of each class are found by comparing the two files
// (./defects.ts), so its disagreements are classified by kind too.
// Places are JSON pointers into schema.json.

export type LedgerClassId =
  | "number-as-integer"
  | "json-value-without-null"
  | "null-dropped"
  | "never-property-omitted"
  | "type-spelled-differently";

export interface LedgerClass {
  id: LedgerClassId;
  schemaTs: string;
  schemaJson: string;
  upstream: string;
  /** Which validator rejects a value the other accepts at a place of this class. */
  rejects: "ajv" | "mcpgen" | "either";
  places: Readonly<Record<string, readonly string[]>>;
}

/** The places of each class in one schema.json: the listing of a pinned revision, or what ./defects.ts finds. */
export type LedgerPlaces = ReadonlyMap<LedgerClassId, readonly string[]>;

const integerPlaces2024 = [
  "#/definitions/CompleteResult/properties/completion/properties/total",
  "#/definitions/CreateMessageRequest/properties/params/properties/maxTokens",
  "#/definitions/JSONRPCError/properties/error/properties/code",
  "#/definitions/ProgressToken",
  "#/definitions/RequestId",
  "#/definitions/Resource/properties/size",
];

const integerPlaces2026 = [
  "#/$defs/CompleteResult/properties/completion/properties/total",
  "#/$defs/CreateMessageRequestParams/properties/maxTokens",
  "#/$defs/DiscoverResult/properties/ttlMs",
  "#/$defs/ElicitResult/properties/content/additionalProperties",
  "#/$defs/Error/properties/code",
  "#/$defs/ListPromptsResult/properties/ttlMs",
  "#/$defs/ListResourceTemplatesResult/properties/ttlMs",
  "#/$defs/ListResourcesResult/properties/ttlMs",
  "#/$defs/ListToolsResult/properties/ttlMs",
  "#/$defs/ProgressToken",
  "#/$defs/RequestId",
  "#/$defs/Resource/properties/size",
];

export const ledger: readonly LedgerClass[] = [
  {
    id: "number-as-integer",
    schemaTs: "`number` with no @TJS-type annotation: any JSON number",
    schemaJson: '"type": "integer" (or an integer member in a type list): non-integers rejected',
    rejects: "ajv",
    upstream:
      "modelcontextprotocol/modelcontextprotocol#2698: scripts/generate-schemas.ts runs typescript-json-schema with " +
      "--defaultNumberType integer; #2710 and #3139 fixed only NumberSchema by adding @TJS-type number",
    places: {
      "2024-11-05": integerPlaces2024,
      "2025-03-26": integerPlaces2024,
      "2025-06-18": [
        ...integerPlaces2024,
        "#/definitions/ElicitResult/properties/content/additionalProperties",
        "#/definitions/ResourceLink/properties/size",
      ].sort(),
      "2025-11-25": [
        "#/$defs/CompleteResult/properties/completion/properties/total",
        "#/$defs/CreateMessageRequestParams/properties/maxTokens",
        "#/$defs/ElicitResult/properties/content/additionalProperties",
        "#/$defs/Error/properties/code",
        "#/$defs/ProgressToken",
        "#/$defs/RequestId",
        "#/$defs/Resource/properties/size",
        "#/$defs/ResourceLink/properties/size",
        "#/$defs/Task/properties/pollInterval",
        "#/$defs/Task/properties/ttl",
        "#/$defs/TaskMetadata/properties/ttl",
      ],
      "2026-07-28": integerPlaces2026,
      draft: integerPlaces2026,
      // The tasks extension's schema.json carries the base types it uses as that generator emits them.
      "ext/tasks": ["#/$defs/Error/properties/code", "#/$defs/RequestId"],
    },
  },
  {
    id: "json-value-without-null",
    schemaTs: "JSONValue = string | number | boolean | null | JSONObject | JSONArray",
    schemaJson:
      'JSONValue = anyOf [JSONObject, array, "type": ["string", "integer", "boolean"]]: no null, no non-integer',
    rejects: "ajv",
    upstream:
      "no upstream issue found at the pinned commit; same generator run as #2698, which also drops null from a union " +
      "unless the field carries @nullable (the fix for Task.ttl, modelcontextprotocol/modelcontextprotocol#2313)",
    places: {
      "2026-07-28": ["#/$defs/JSONValue"],
      draft: ["#/$defs/JSONValue"],
    },
  },
  {
    id: "null-dropped",
    schemaTs: "a type that admits null (`T | null`, or @nullable)",
    schemaJson: "the same place without null",
    rejects: "ajv",
    upstream:
      "typescript-json-schema drops null from a union unless the field carries @nullable; upstream added @nullable " +
      "to Task.ttl in modelcontextprotocol/modelcontextprotocol#2313",
    places: {},
  },
  {
    id: "never-property-omitted",
    schemaTs: "a property typed `never` (required or optional): it must be absent",
    schemaJson: "the property left out of properties and required: any value passes",
    rejects: "mcpgen",
    upstream:
      "typescript-json-schema has no schema for never and omits the property; upstream's draft CallToolResult " +
      "(structuredContent: never on the unstructured member) between modelcontextprotocol/modelcontextprotocol " +
      "commits 03dc24b3 and 3addaff1",
    places: {},
  },
  {
    id: "type-spelled-differently",
    schemaTs: "a property of one primitive type (string, number or boolean)",
    schemaJson: "the same place typed as another primitive: schema.json was not regenerated when schema.ts changed",
    rejects: "either",
    upstream:
      "upstream's draft commit d0b2e106 changed Annotations.lastModified from number to string in schema.ts and " +
      "committed the previous commit's schema.json unchanged (lastModified still an integer)",
    places: {},
  },
];

/** The places of each class the ledger lists for a pinned revision (or an extension, "ext/<name>"). */
export function listedPlaces(revision: string): LedgerPlaces {
  return new Map(ledger.map((entry) => [entry.id, entry.places[revision] ?? []]));
}

/** The ledger class and place that explain an ajv error at `place`, if any. */
export function explain(
  revision: string | LedgerPlaces,
  place: string,
): { id: LedgerClass["id"]; place: string } | undefined {
  const places = typeof revision === "string" ? listedPlaces(revision) : revision;
  for (const entry of ledger) {
    if (entry.rejects === "mcpgen") continue;
    const hit = (places.get(entry.id) ?? []).find((p) => place === p || place.startsWith(`${p}/`));
    if (hit) return { id: entry.id, place: hit };
  }
  return undefined;
}
