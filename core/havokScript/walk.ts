/**
 * Every node of a syntax tree, without recursion: the parser caps nesting at `MAX_NESTING` levels,
 * but a recursive walk spends several stack frames a level (a statement, its clause list, a
 * clause, its body), so the language server's folding, semantic tokens and selection walk with an
 * explicit stack instead and cannot overflow whatever the tree's depth.
 */
import type { Span } from './syntax';

/** A node as a walk sees it: anything with a range; `kind` names the syntax (`If`, `Function`, …) where the node has one. */
export type WalkedNode = Span & { kind?: string } & Record<string, unknown>;

/**
 * Visit every object below `root` that has a `start`/`end` range, parents before children, in
 * source order (children in the order the tree holds them). `visit` returning false skips the
 * node's children. Comments and diagnostics (a chunk's lists) are not walked.
 */
export function forEachNode(root: unknown, visit: (node: WalkedNode) => boolean | void): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    const n = x as WalkedNode;
    if (typeof n.start === 'number' && typeof n.end === 'number' && visit(n) === false) continue;
    const children: unknown[] = [];
    for (const k in n) {
      if (k === 'comments' || k === 'diagnostics') continue;
      const v = n[k];
      if (typeof v === 'object' && v !== null) children.push(v);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}
