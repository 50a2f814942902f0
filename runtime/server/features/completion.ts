// completion/complete (server/utilities/completion): the completer a prompt's
// argument or a resource template's variable registered, asked with what the
// user typed so far and the arguments already filled in.
import type { CompleteRequestParams, CompleteResult } from "../../protocol/handler-revision.js";
import type { Completer, Returned } from "../definitions.js";

// completion#completion-results: at most 100 values in one response.
const MAX_COMPLETIONS = 100;

/** Where completers are registered: prompts by name, resource templates by their URI template. */
export interface Completers {
  readonly prompts: { completer(name: string, argument: string): Completer | undefined };
  readonly resources: { completer(uriTemplate: string, variable: string): Completer | undefined };
}

export async function complete(
  params: CompleteRequestParams,
  completers: Completers,
): Promise<Returned<CompleteResult>> {
  const { ref, argument } = params;
  const completer =
    ref.type === "ref/prompt"
      ? completers.prompts.completer(ref.name, argument.name)
      : completers.resources.completer(ref.uri, argument.name);
  const values = completer ? await completer(argument.value, { arguments: params.context?.arguments ?? {} }) : [];
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETIONS),
      total: values.length,
      hasMore: values.length > MAX_COMPLETIONS,
    },
  };
}
