/**
 * Where the symbolic links of a tree lead when they are followed the way the kernel follows them: hop by hop,
 * each `..` taken from where the previous link really led, not from where its text says. Checking each link's
 * text on its own is not enough: `a -> .` and `b -> a/..` each look inside the tree, yet `b` is the tree's
 * parent; `c -> b/node_modules/b/..` is its grandparent, and so on. Every check of a tree that came out of an
 * install container (the extraction, the install cache's verification) resolves the links here.
 *
 * The tree is a trie of its entries in the project's coordinates (the tree sits at `at`, e.g. `node_modules`
 * or `packages/a/node_modules`). A position may be passed through when it is inside the tree, inside one of
 * `roots` (directories of the checkout links may point into: npm workspace packages) or on the way down from
 * the project root to the tree or a root (`.` and `packages` for `packages/a`); a link is refused unless
 * it ends inside the tree or a root, and whenever a hop leaves those places or climbs above the project root.
 * Names the tree does not hold are taken as plain directories (a missing one only makes the link dangle).
 * Cost: linear in the entries plus the total length of the link targets (each link is resolved once).
 */

/** Links followed inside one another before a resolution is refused (the kernel's MAXSYMLINKS). */
export const MAX_LINK_DEPTH = 40;
/** Longest link target accepted (PATH_MAX). */
export const MAX_LINK_TARGET = 4096;

interface Node {
  parent: Node | null;
  children: Map<string, Node> | null;
  /** The link's target text when this entry is a symbolic link. */
  target?: string;
  /** Where the link leads (memo), null when it escapes; undefined while not resolved yet. */
  resolved?: Node | null;
  resolving?: boolean;
  /** Inside the tree, or inside one of the roots: a link may end here. */
  inside: boolean;
  /** On the way from the project root down to the tree: a link may pass through, not end here. */
  passage: boolean;
  name: string;
}

export interface LinkScope {
  /** Where the tree sits in the project (`node_modules`); "" when the tree is the project itself. */
  at: string;
  /** Project directories links may point into besides the tree (checked relative paths). */
  roots?: readonly string[];
  /** Whether a link may point at the tree's own top directory (the cache entry is the workspace: yes). */
  topInside?: boolean;
}

export interface LinkEscape {
  /** The link's path, relative to the tree. */
  link: string;
  target: string;
  why: string;
}

export class LinkGraph {
  private readonly project: Node;
  // Assigned once the way down to the tree exists (child() compares with it before: undefined then).
  private readonly top: Node;
  private readonly links: { node: Node; rel: string }[] = [];

  constructor(scope: LinkScope = { at: "", topInside: true }) {
    this.project = { parent: null, children: null, inside: false, passage: true, name: "" };
    let top = this.project;
    for (const part of splitPath(scope.at)) {
      top = this.child(top, part);
      top.passage = true;
    }
    top.inside = scope.topInside === true;
    top.passage = true;
    this.top = top;
    for (const r of scope.roots ?? []) {
      const root = safeEntryPath(r);
      if (typeof root !== "string" || root === "") continue;
      // The way down to a root may be passed through (`../../packages/a` from `node_modules/@ws/a`).
      let n = this.project;
      for (const part of root.split("/")) {
        n = this.child(n, part);
        n.passage = true;
      }
      n.inside = true;
    }
  }

  /** Records an entry of the tree (path relative to the tree); `target` makes it a symbolic link. */
  add(rel: string, target?: string): void {
    let n = this.top;
    for (const part of splitPath(rel)) n = this.child(n, part);
    if (target !== undefined && n !== this.top) {
      n.target = target;
      this.links.push({ node: n, rel });
    }
  }

  get linkCount(): number {
    return this.links.length;
  }

  /** The first link (in the order added) that leads outside, or null when every link stays inside. */
  firstEscape(): LinkEscape | null {
    for (const { node, rel } of this.links) {
      const where = this.resolveLink(node, 0);
      if (where === null || !where.inside) {
        return {
          link: rel,
          target: node.target ?? "",
          why:
            where === null
              ? "followed link by link, it leads outside"
              : "followed link by link, it ends outside the tree",
        };
      }
    }
    return null;
  }

  private child(n: Node, name: string): Node {
    n.children ??= new Map();
    let c = n.children.get(name);
    if (c === undefined) {
      // A child of the tree or of a root is inside too; a child of the way down is not (unless listed).
      c = { parent: n, children: null, inside: n.inside || n === this.top, passage: false, name };
      n.children.set(name, c);
    }
    return c;
  }

  private resolveLink(n: Node, depth: number): Node | null {
    if (n.resolved !== undefined) return n.resolved;
    // A loop, or links nested deeper than the kernel follows: refused (the kernel would fail with ELOOP).
    if (n.resolving || depth > MAX_LINK_DEPTH) return null;
    n.resolving = true;
    const r = this.walk(n.parent!, n.target ?? "", depth);
    n.resolving = false;
    n.resolved = r;
    return r;
  }

  private walk(from: Node, target: string, depth: number): Node | null {
    if (target === "" || target.includes("\0") || target.startsWith("/") || target.length > MAX_LINK_TARGET)
      return null;
    let pos = from;
    for (const part of target.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (pos.parent === null) return null; // above the project root
        pos = pos.parent;
      } else {
        pos = this.child(pos, part);
        if (pos.target !== undefined) {
          const next = this.resolveLink(pos, depth + 1);
          if (next === null) return null;
          pos = next;
        }
      }
      if (!pos.inside && !pos.passage) return null;
    }
    return pos;
  }
}

function splitPath(p: string): string[] {
  return p.split("/").filter((s) => s !== "" && s !== ".");
}

/** The entry's path, relative and normalized, or a reason it is not acceptable. */
export function safeEntryPath(name: string): string | { problem: string } {
  if (name.includes("\0")) return { problem: "a NUL byte in a path" };
  const trimmed = name.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  if (trimmed === "" || trimmed === ".") return "";
  if (trimmed.startsWith("/")) return { problem: `absolute path ${JSON.stringify(name)}` };
  const parts = trimmed.split("/");
  if (parts.some((p) => p === "..")) return { problem: `path ${JSON.stringify(name)} climbs out with ..` };
  if (trimmed.length > 4096) return { problem: "a path longer than 4096 characters" };
  return parts.filter((p) => p !== "" && p !== ".").join("/");
}
