// completion/complete (server/utilities/completion): the completer a prompt's
// argument or a resource template's variable registered, asked with what the
// user typed so far, the arguments already filled in and the request's
// context. The prompt's or template's scopes are checked first, as prompts/get
// and resources/read check them: its values may reveal what the scope protects.
import type { CompleteRequestParams, CompleteResult } from "../../protocol/handler-revision.js";
import type { RequestContext } from "../context.js";
import type { Completer, Returned } from "../definitions.js";

// completion#completion-results: at most 100 values in one response.
const MAX_COMPLETIONS = 100;

/** Where completers are registered: prompts by name, resource templates by their URI template. */
export interface Completers {
  readonly prompts: { completer(name: string, argument: string, context: RequestContext): Completer | undefined };
  readonly resources: {
    completer(uriTemplate: string, variable: string, context: RequestContext): Completer | undefined;
  };
}

export async function complete(
  params: CompleteRequestParams,
  completers: Completers,
  context: RequestContext,
): Promise<Returned<CompleteResult>> {
  const { ref, argument } = params;
  const completer =
    ref.type === "ref/prompt"
      ? completers.prompts.completer(ref.name, argument.name, context)
      : completers.resources.completer(ref.uri, argument.name, context);
  const values = completer
    ? await completer(argument.value, { arguments: params.context?.arguments ?? {} }, context)
    : [];
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETIONS),
      total: values.length,
      hasMore: values.length > MAX_COMPLETIONS,
    },
  };
}
