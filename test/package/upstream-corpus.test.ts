// The validation benchmark's upstream corpus puts every example that is not a
// message, a method's params or result, or an error into a slot of another
// message. A slot must check the example as what it is: in an open object
// (completion/complete's context) any example passes as nothing but an object,
// which would make the benchmark's corpus easier than real traffic.
// In the package tests beside the bench smoke: it checks bench/'s corpus, not the product.
import { describe, expect, test } from "vitest";
import { upstreamCorpus, type RevisionModule } from "../../bench/upstream-corpus.js";
import * as rev20260728 from "../../generated/2026-07-28/index.js";
import * as revDraft from "../../generated/draft/index.js";
import { lock, projectRoot } from "../helpers.js";

const revisions: [string, RevisionModule][] = [
  ["2026-07-28", rev20260728 as unknown as RevisionModule],
  ["draft", revDraft as unknown as RevisionModule],
];

describe.each(revisions)("bench/upstream-corpus, %s", (revision, generated) => {
  const corpus = upstreamCorpus(projectRoot, revision, generated);
  const placedIn = (example: string) =>
    corpus.messages.find((m) => m.name.startsWith(`${revision} ${example} `))?.name.replace(/^.* \(in (.*)\)$/, "$1");

  test("every example is in the corpus, and every message is valid", () => {
    expect(corpus.leftOut).toEqual([]);
    // One message per example the lock pins.
    const pinned = lock.revisions.find((r) => r.name === revision)!.files.filter((f) => f.path.startsWith("examples/"));
    expect(pinned.length).toBeGreaterThan(0);
    expect(corpus.messages).toHaveLength(pinned.length);
    for (const m of corpus.messages)
      expect(generated.validateMessage(JSON.parse(m.text), m.requestMethod).result).toEqual({ valid: true });
  });

  test("no example is placed where any object passes", () => {
    const open = corpus.messages.filter((m) =>
      / \(in completion\/complete params\.context(\.arguments)?\)$/.test(m.name),
    );
    expect(open.map((m) => m.name)).toEqual([]);
  });

  test("examples go where their own type is checked", () => {
    expect(placedIn("Tool/with-no-parameters.json")).toBe("tools/list result.tools");
    expect(placedIn("TextContent/text-content.json")).toBe("tools/call result.content");
    expect(placedIn("BlobResourceContents/image-file-contents.json")).toBe("resources/read result.contents");
    expect(placedIn("ClientCapabilities/sampling-tool-use-support.json")).toBe(
      "tools/call params._meta.io.modelcontextprotocol/clientCapabilities",
    );
    // Two enum schemas of PrimitiveSchemaDefinition: the elicitation request placed before them carries them.
    for (const example of [
      "BooleanSchema/boolean-input-schema.json",
      "UntitledSingleSelectEnumSchema/color-select-schema.json",
    ])
      expect(placedIn(example)).toBe("tools/call result.inputRequests.input_1.params.requestedSchema.properties.name");
  });

  test("a placed example's own mistakes make its message invalid", () => {
    // A capability given a number: a change the open context slot let through. (A result is no
    // test of this: any result with a string resultType passes as an InputRequiredResult, whose
    // upstream type does not narrow resultType.)
    const placed = corpus.messages.find((m) => m.name.includes("ClientCapabilities/sampling-tool-use-support.json"))!;
    const message = JSON.parse(placed.text) as { params: { _meta: Record<string, { sampling: unknown }> } };
    expect(generated.validateMessage(message).result.valid).toBe(true);
    message.params._meta["io.modelcontextprotocol/clientCapabilities"]!.sampling = 12345;
    expect(generated.validateMessage(message).result).toMatchObject({
      valid: false,
      errors: [{ path: "/params/_meta/io.modelcontextprotocol~1clientCapabilities/sampling" }],
    });
  });
});
