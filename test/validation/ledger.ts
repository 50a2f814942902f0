// Reviewed ledger of the places where upstream schema.json contradicts
// schema.ts, for each pinned revision. schema.ts wins: mcpgen's validators
// follow it, and the differential test excuses a disagreement with ajv only
// when ajv's error stands at (or inside) a place listed here.
//
// Each class states what the two files say and cites upstream. The test
// re-checks every place against both files (the schema.json node must say what
// the class claims, the schema.ts type must say the opposite) and fails on a
// place the corpus no longer reaches, so the ledger cannot go stale.
// Places are JSON pointers into schema.json.

export interface LedgerClass {
  id: "number-as-integer" | "json-value-without-null";
  schemaTs: string;
  schemaJson: string;
  upstream: string;
  places: Readonly<Record<string, readonly string[]>>;
}

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
    upstream:
      "no upstream issue found at the pinned commit; same generator run as #2698, which also drops null from a union " +
      "unless the field carries @nullable (the fix for Task.ttl, modelcontextprotocol/modelcontextprotocol#2313)",
    places: {
      "2026-07-28": ["#/$defs/JSONValue"],
      draft: ["#/$defs/JSONValue"],
    },
  },
];

/** The ledger class and place that explain an ajv error at `place`, if any. */
export function explain(revision: string, place: string): { id: LedgerClass["id"]; place: string } | undefined {
  for (const entry of ledger) {
    const hit = (entry.places[revision] ?? []).find((p) => place === p || place.startsWith(`${p}/`));
    if (hit) return { id: entry.id, place: hit };
  }
  return undefined;
}
