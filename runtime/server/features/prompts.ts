// The prompts feature (server/prompts): prompts checked as they are
// registered (the Prompt schema type, the scopes, completers only for
// arguments a prompt has), listed (to a caller, those its scopes allow), and
// got: an unknown name or a missing required argument is -32602
// (server/prompts#error-handling), and a handler's string becomes one user message.
import { allows, checkedScopes, declaresScopes, requireScopes, type Authorization } from "../authorization.js";
import type { Completer, PromptDefinition, PromptHandler, Returned } from "../definitions.js";
import { invalidParams } from "../errors.js";
import type {
  GetPromptRequestParams,
  GetPromptResult,
  Prompt,
  PromptArgument,
} from "../../protocol/handler-revision.js";
import type { InputRequired } from "../input/round.js";
import { requestOf, type RequestContext } from "../context.js";
import type { DefinitionCheck } from "./tools.js";

interface RegisteredPrompt {
  readonly prompt: Prompt;
  readonly completers: Record<string, Completer>;
  readonly handler: PromptHandler<readonly PromptArgument[]>;
  readonly scopes: readonly string[] | undefined;
}

export class PromptCatalog {
  private readonly byName = new Map<string, RegisteredPrompt>();

  constructor(private readonly checked: DefinitionCheck) {}

  get size(): number {
    return this.byName.size;
  }

  /** Whether a prompt completes one of its arguments (completion/complete is offered then). */
  get completes(): boolean {
    return [...this.byName.values()].some((p) => Object.keys(p.completers).length > 0);
  }

  /** Checks a prompt's definition and adds it; a TypeError names what is wrong with it. */
  add<const A extends readonly PromptArgument[]>(
    name: string,
    definition: PromptDefinition<A>,
    handler: PromptHandler<A>,
  ): void {
    if (this.byName.has(name)) throw new TypeError(`a prompt named ${JSON.stringify(name)} is already registered`);
    const { complete, scopes, ...metadata } = definition;
    const completers: Record<string, Completer> = { ...(complete as Record<string, Completer> | undefined) };
    for (const argument of Object.keys(completers))
      if (!(definition.arguments ?? []).some((a) => a.name === argument))
        throw new TypeError(`prompt ${name}: cannot complete ${argument}, which it does not have`);
    const prompt = this.checked("Prompt", `prompt ${name}`, { name, ...metadata }) as Prompt;
    this.byName.set(name, {
      prompt,
      completers,
      handler: handler as unknown as PromptHandler<readonly PromptArgument[]>,
      scopes: checkedScopes(scopes, `prompt ${name}`),
    });
  }

  delete(name: string): boolean {
    return this.byName.delete(name);
  }

  /** Whether a prompt declares scopes: prompts/list then depends on the caller. */
  get scoped(): boolean {
    return [...this.byName.values()].some((p) => declaresScopes(p.scopes));
  }

  /** prompts/list, in registration order: the prompts `authorization` may get. */
  list(authorization: Authorization | undefined): Prompt[] {
    return [...this.byName.values()].filter((p) => allows(authorization, p.scopes)).map((p) => p.prompt);
  }

  async get(
    params: GetPromptRequestParams,
    context: RequestContext,
  ): Promise<Returned<GetPromptResult> | InputRequired> {
    const registered = this.byName.get(params.name);
    // server/prompts#error-handling: invalid prompt name and missing arguments are -32602.
    if (!registered) throw invalidParams(`Unknown prompt: ${params.name}`, { name: params.name });
    requireScopes(requestOf(context).channel.authorization, registered.scopes, `prompt ${params.name}`);
    const args = params.arguments ?? {};
    for (const argument of registered.prompt.arguments ?? [])
      if (argument.required && args[argument.name] === undefined)
        throw invalidParams(`Missing required argument ${argument.name} for prompt ${params.name}`, {
          name: params.name,
          argument: argument.name,
        });
    const returned = await registered.handler(args as never, context);
    if (typeof returned !== "string") return returned;
    return { messages: [{ role: "user", content: { type: "text", text: returned } }] };
  }

  /**
   * The completer of a prompt's argument (none: no values); an unknown prompt
   * is -32602, and one whose scopes the caller lacks is refused as prompts/get is.
   */
  completer(name: string, argument: string, context: RequestContext): Completer | undefined {
    const prompt = this.byName.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${name}`, { name });
    requireScopes(requestOf(context).channel.authorization, prompt.scopes, `prompt ${name}`);
    return prompt.completers[argument];
  }
}
