// The resources feature (server/resources): resources at fixed URIs and
// resource templates (RFC 6570), checked as they are registered (the Resource
// and ResourceTemplate schema types, the cache hint, the scopes, completers
// only for variables a template has), listed (to a caller, those its scopes
// allow), and read: a fixed URI first, then the first template that matches,
// the result completed with its cache hint. A URI nothing serves is
// ResourceNotFoundError, whose code is the client's revision's.
import { allows, checkedScopes, declaresScopes, requireScopes, type Authorization } from "../authorization.js";
import type {
  CacheHint,
  Completer,
  ResourceDefinition,
  ResourceHandler,
  ResourceReturn,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  Returned,
} from "../definitions.js";
import { invalidParams, ResourceNotFoundError } from "../errors.js";
import type {
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "../../protocol/handler-revision.js";
import { InputRequired } from "../input/round.js";
import { requestOf, type RequestContext } from "../context.js";
import type { DefinitionCheck } from "./tools.js";
import { UriTemplate } from "./uri-template.js";

interface RegisteredResource {
  readonly resource: Resource;
  readonly handler: ResourceHandler;
  readonly cache: CacheHint | undefined;
  readonly scopes: readonly string[] | undefined;
}

interface RegisteredTemplate {
  readonly template: ResourceTemplate;
  readonly matcher: UriTemplate;
  readonly definition: ResourceTemplateDefinition;
  readonly handler: ResourceTemplateHandler;
}

export class ResourceCatalog {
  private readonly resources = new Map<string, RegisteredResource>();
  private readonly templates = new Map<string, RegisteredTemplate>();

  constructor(
    private readonly checked: DefinitionCheck,
    /** The server's cache hint, under each resource's own. */
    private readonly cacheHint: Required<CacheHint>,
  ) {}

  /** Resources and templates registered. */
  get size(): number {
    return this.resources.size + this.templates.size;
  }

  /** Whether a template completes one of its variables (completion/complete is offered then). */
  get completes(): boolean {
    return [...this.templates.values()].some((t) => Object.keys(t.definition.complete ?? {}).length > 0);
  }

  has(uri: string): boolean {
    return this.resources.has(uri);
  }

  /** Whether a resource or template declares scopes: the lists then depend on the caller. */
  get scoped(): boolean {
    return [...this.resources.values()].some((r) => declaresScopes(r.scopes)) || this.templatesScoped;
  }

  /** Whether a template declares scopes: resources/templates/list then depends on the caller. */
  get templatesScoped(): boolean {
    return [...this.templates.values()].some((t) => declaresScopes(t.definition.scopes));
  }

  /**
   * The scopes reading `uri` needs: its fixed resource's, else the first
   * matching template's (as read picks them); none for a URI nothing serves.
   */
  scopesOf(uri: string): readonly string[] | undefined {
    const fixed = this.resources.get(uri);
    if (fixed) return fixed.scopes;
    for (const { matcher, definition } of this.templates.values()) if (matcher.match(uri)) return definition.scopes;
    return undefined;
  }

  /** Checks a resource's definition and adds it; a TypeError names what is wrong with it. */
  add(uri: string, definition: ResourceDefinition, handler: ResourceHandler): void {
    if (this.resources.has(uri))
      throw new TypeError(`a resource with URI ${JSON.stringify(uri)} is already registered`);
    const { cache, scopes, ...metadata } = definition;
    const resource = this.checked("Resource", `resource ${uri}`, { uri, ...metadata }) as Resource;
    this.resources.set(uri, {
      resource,
      handler,
      cache: cache && checkedCacheHint(cache, `resource ${uri}`),
      scopes: checkedScopes(scopes, `resource ${uri}`),
    });
  }

  delete(uri: string): boolean {
    return this.resources.delete(uri);
  }

  /** Checks a template's definition and adds it; a TypeError names what is wrong with it. */
  addTemplate(uriTemplate: string, definition: ResourceTemplateDefinition, handler: ResourceTemplateHandler): void {
    if (this.templates.has(uriTemplate))
      throw new TypeError(`a resource template ${JSON.stringify(uriTemplate)} is already registered`);
    const matcher = new UriTemplate(uriTemplate);
    const { complete, list, cache, scopes, ...metadata } = definition;
    if (cache) checkedCacheHint(cache, `resource template ${uriTemplate}`);
    checkedScopes(scopes, `resource template ${uriTemplate}`);
    for (const variable of Object.keys(complete ?? {}))
      if (!matcher.variableNames.includes(variable))
        throw new TypeError(`resource template ${uriTemplate}: cannot complete ${variable}, which it does not have`);
    const template = this.checked("ResourceTemplate", `resource template ${uriTemplate}`, {
      uriTemplate,
      ...metadata,
    }) as ResourceTemplate;
    this.templates.set(uriTemplate, { template, matcher, definition, handler });
  }

  deleteTemplate(uriTemplate: string): boolean {
    return this.templates.delete(uriTemplate);
  }

  /**
   * resources/list: the fixed resources, then what each template's `list`
   * returns; of both, those the caller's scopes allow it to read (a template
   * it may not read is not asked to list).
   */
  async list(context: RequestContext): Promise<Resource[]> {
    const { authorization } = requestOf(context).channel;
    const listed: Resource[] = [...this.resources.values()]
      .filter((r) => allows(authorization, r.scopes))
      .map((r) => r.resource);
    for (const { definition } of this.templates.values())
      if (definition.list && allows(authorization, definition.scopes)) listed.push(...(await definition.list(context)));
    return listed;
  }

  /** resources/templates/list, in registration order: the templates `authorization` may read. */
  listTemplates(authorization: Authorization | undefined): ResourceTemplate[] {
    return [...this.templates.values()]
      .filter((t) => allows(authorization, t.definition.scopes))
      .map((t) => t.template);
  }

  async read(
    params: ReadResourceRequestParams,
    context: RequestContext,
  ): Promise<Returned<ReadResourceResult> | InputRequired> {
    const { uri } = params;
    let returned: ResourceReturn;
    let mimeType: string | undefined;
    let cache: CacheHint | undefined;
    const fixed = this.resources.get(uri);
    if (fixed) {
      requireScopes(requestOf(context).channel.authorization, fixed.scopes, `resource ${uri}`);
      mimeType = fixed.resource.mimeType;
      cache = fixed.cache;
      returned = await fixed.handler(uri, context);
    } else {
      for (const { matcher, template, handler, definition } of this.templates.values()) {
        const variables = matcher.match(uri);
        if (!variables) continue;
        requireScopes(requestOf(context).channel.authorization, definition.scopes, `resource ${uri}`);
        mimeType = template.mimeType;
        cache = definition.cache;
        returned = await handler(uri, variables, context);
        break;
      }
    }
    // server/resources#error-handling: the code is the client's revision's (-32002, or -32602 from 2026-07-28).
    if (returned === undefined) throw new ResourceNotFoundError(uri);
    if (returned instanceof InputRequired) return returned;
    const hint = { ...this.cacheHint, ...cache };
    if (typeof returned !== "string") return { ...hint, ...returned };
    return { contents: [{ uri, text: returned, ...(mimeType !== undefined ? { mimeType } : {}) }], ...hint };
  }

  /**
   * The completer of a template's variable (none: no values); an unknown
   * template is -32602, and one whose scopes the caller lacks is refused as a read is.
   */
  completer(uriTemplate: string, variable: string, context: RequestContext): Completer | undefined {
    const template = this.templates.get(uriTemplate);
    if (!template) throw invalidParams(`Unknown resource template: ${uriTemplate}`, { uri: uriTemplate });
    requireScopes(
      requestOf(context).channel.authorization,
      template.definition.scopes,
      `resource template ${uriTemplate}`,
    );
    return template.definition.complete?.[variable];
  }
}

/** A cache hint with its defaults, or a TypeError naming what is wrong (caching#time-to-live-ttl-field: ttlMs >= 0). */
export function checkedCacheHint(hint: CacheHint, what: string): Required<CacheHint> {
  const ttlMs = hint.ttlMs ?? 0;
  const cacheScope = hint.cacheScope ?? "private";
  if (!Number.isInteger(ttlMs) || ttlMs < 0)
    throw new TypeError(`${what}: ttlMs must be an integer >= 0, not ${hint.ttlMs}`);
  if (cacheScope !== "public" && cacheScope !== "private")
    throw new TypeError(`${what}: cacheScope must be "public" or "private", not ${JSON.stringify(hint.cacheScope)}`);
  return { ttlMs, cacheScope };
}
