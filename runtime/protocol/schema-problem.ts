/** A problem a compiled schema finds in a value: where (JSON pointer), which keyword, and what. */
export interface SchemaProblem {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}
