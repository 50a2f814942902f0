// Reading a capabilities object along a method table's capability path.
import { isObject } from "../validation.js";
import type { CapabilityRequirement } from "../index.js";

/** Whether a capabilities object declares the capability at `path` (a present, non-false value). */
export function declared(capabilities: unknown, requirement: CapabilityRequirement): boolean {
  let value: unknown = capabilities;
  for (const key of requirement.path) {
    if (!isObject(value)) return false;
    value = value[key];
  }
  return value !== undefined && value !== null && value !== false;
}
