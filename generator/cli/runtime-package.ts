// `validate` and `call` run protocol code: the generated revisions and the
// client. They load it from the runtime package, `mcpgen`, at run time: the
// generator package depends on it, and in a checkout the specifier resolves to
// the checkout's own dist/ (package self-reference). A computed specifier keeps
// the runtime, and the generated tree it imports, out of the generator's
// compilation, which runs before anything is generated.
import { SpecError } from "../lock/lock.js";

/**
 * Imports `mcpgen/<subpath>`. A module that cannot be found is bad input, a
 * SpecError whose message starts with `missing`; any other failure is a bug.
 */
export async function importRuntime<T>(subpath: string, missing: string): Promise<T> {
  const specifier = `mcpgen/${subpath}`;
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "ERR_PACKAGE_PATH_NOT_EXPORTED") {
      throw new SpecError(`${missing}: ${specifier} cannot be loaded (${(error as Error).message})`);
    }
    throw error;
  }
}
