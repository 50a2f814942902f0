// What a server offers, as its clients learn it: the methods its registrations
// expose (named in the handler revision) and, from them, its capabilities in
// each revision's shape (capabilities.ts; basic/lifecycle#capability-negotiation),
// derived once per revision's tables and again after what is offered changes.
import type { MessageTables } from "../messages.js";
import type { ExtensionTables } from "../extensions.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import { deriveCapabilities } from "./capabilities.js";
import { flavourOf } from "./tasks/flavours.js";
import type { Feature } from "./types.js";

/** What is registered, as far as the capabilities tell. */
export interface Offer {
  /** How many tools, resources (with templates) and prompts are registered. */
  readonly counts: Readonly<Record<Feature, number>>;
  /** Whether a prompt or a resource template completes its arguments. */
  readonly completes: boolean;
  /** Whether the server tells of list changes (ServerOptions.listChanged). */
  readonly listChanged: boolean;
  readonly extensions: readonly { readonly tables: ExtensionTables; readonly settings: unknown }[];
  /** Whether tools run as tasks. */
  readonly tasks: boolean;
  /** The capabilities the server declares itself (ServerOptions.capabilities). */
  readonly declared: Readonly<Record<string, unknown>>;
}

/** The methods a server answers or sends given what is registered, in the handler revision. */
export function offeredMethods(offer: Offer): string[] {
  const has = (feature: Feature) => offer.counts[feature] > 0 || offer.declared[feature] !== undefined;
  const offered = [
    "ping",
    "server/discover",
    "logging/setLevel",
    "notifications/message",
    "subscriptions/listen",
    "notifications/subscriptions/acknowledged",
  ];
  const withList = (feature: Feature, methods: string[]) => {
    offered.push(...methods);
    if (offer.listChanged) offered.push(`notifications/${feature}/list_changed`);
  };
  if (has("tools")) withList("tools", ["tools/list", "tools/call"]);
  if (has("resources"))
    withList("resources", [
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "notifications/resources/updated",
    ]);
  if (has("prompts")) withList("prompts", ["prompts/list", "prompts/get"]);
  if (offer.completes || offer.declared["completions"] !== undefined) offered.push("completion/complete");
  for (const extension of offer.extensions) offered.push(...Object.keys(extension.tables.methods));
  if (offer.tasks) offered.push("tasks/get", "tasks/result", "tasks/list", "tasks/cancel");
  return offered;
}

/** A server's capabilities per revision's tables, kept until what it offers changes. */
export class OfferedCapabilities {
  private byTables = new WeakMap<MessageTables, unknown>();
  private lastTables: MessageTables | undefined;
  private last: unknown;

  /** `offer` reads what is registered now. */
  constructor(private readonly offer: () => Offer) {}

  /**
   * The capabilities in a revision's shape, derived from its method table:
   * each offered method's capability path is declared. A leaf is `{}` where
   * the revision's ServerCapabilities takes an object there and `true` where
   * it takes a flag.
   */
  of(wire: Pick<LoadedRevision, "tables">): unknown {
    const { tables } = wire;
    // Every per-request request asks, at the same revision almost always: the last answer before the WeakMap's lookup.
    if (tables === this.lastTables) return this.last;
    let capabilities = this.byTables.get(tables);
    if (capabilities === undefined) {
      const offer = this.offer();
      capabilities = deriveCapabilities(tables, offeredMethods(offer), {
        // 2025-11-25 #capabilities: task-augmented tools/call is declared under tasks.requests (no method says so).
        taskAugmentedCall: offer.tasks && flavourOf({ tables } as LoadedRevision)?.clientAsks === true,
        extensions: offer.extensions,
        declared: offer.declared,
      });
      this.byTables.set(tables, capabilities);
    }
    this.lastTables = tables;
    this.last = capabilities;
    return capabilities;
  }

  /** What is offered changed: every revision's capabilities are derived again on their next use. */
  forget(): void {
    this.byTables = new WeakMap();
    this.lastTables = undefined;
    this.last = undefined;
  }
}
