// ts-morph, loaded once for the parse modules. It is CommonJS: imported as an
// ES module, Node first scans its source and what it re-exports for export
// names; require() does not.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

export const { Node, Project, SyntaxKind } = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;
export type Node = TsMorph.Node;
export type SyntaxKind = TsMorph.SyntaxKind;
