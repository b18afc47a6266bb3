// The syntax tree read once into plain objects (issue #16, ADR 0072). Every property of a web-tree-sitter node is a
// call into the wasm runtime (type, end, named, each child, each field name), and the walk reads most of them more
// than once: reading each node's few properties once, into a SyntaxNode, costs less than the walk's reads did. The
// walk and the word decoding then read only JS objects; texts are sliced from the JS string, never fetched from wasm.
import type { Node as TsNode, Tree } from 'web-tree-sitter';
import { type CursorBinding, cursorFunctions } from './runtime.js';

/**
 * Parents whose children's field names the walk reads (loops, case items, heredocs, functions, redirected
 * statements, assignments): read for every child. `command` reads them only for anonymous children (`$`, `==`
 * as arguments); everywhere else they are not read, and asking for one throws (the line is then kept whole).
 */
const FIELDED: ReadonlySet<string> = new Set([
  'for_statement',
  'c_style_for_statement',
  'while_statement',
  'until_statement',
  'case_item',
  'heredoc_redirect',
  'function_definition',
  'redirected_statement',
  'variable_assignment',
]);

/** The fields of a node whose children's fields are never read: shared, never written. */
const NO_FIELDS: readonly undefined[] = Object.freeze([]) as readonly undefined[];

/**
 * The children of a leaf: shared, never written (most nodes are leaves; an array each was much of the reading's
 * garbage). Not frozen, and made as a copy of an object array, so it is the same kind of array as every other
 * children list: the walk's loops over children then see one kind (a frozen or a small-integer array is another).
 */
const NO_CHILDREN: readonly SyntaxNode[] = objectArray<SyntaxNode>();

/** An empty array of V8's object element kind (what `slice` of a list of nodes gives). */
function objectArray<T>(): T[] {
  const a: unknown[] = [{}];
  return a.slice(0, 0) as T[];
}

/** A node of the syntax tree, with the part of web-tree-sitter's Node interface the walk uses. */
export class SyntaxNode {
  /** Set once, by the reading, when the node's last child has been read (an array of exactly its children). */
  children: readonly SyntaxNode[] = NO_CHILDREN;
  /**
   * The field name of each child (null: none); undefined where it was not read (see FIELDED). Set once, with the
   * children, for the parents whose fields are read; NO_FIELDS (every question throws) for the others.
   */
  fields: readonly (string | null | undefined)[] = NO_FIELDS;

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly parent: SyntaxNode | null,
    readonly isError: boolean,
    readonly isMissing: boolean,
    /** Whether the node is, or holds, an ERROR or MISSING node; or how to ask the tree (see ErrorLookup). */
    private errorFlag: boolean | ErrorLookup,
  ) {}

  /** The node is, or holds, an ERROR or MISSING node. */
  get hasError(): boolean {
    const flag = this.errorFlag;
    if (typeof flag === 'boolean') return flag;
    const answer = flag.hasError(this);
    this.errorFlag = answer;
    return answer;
  }

  get childCount(): number {
    return this.children.length;
  }

  get firstChild(): SyntaxNode | null {
    return this.children[0] ?? null;
  }

  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }

  get namedChildren(): SyntaxNode[] {
    return this.children.filter(isNamedNode);
  }

  get namedChildCount(): number {
    let n = 0;
    for (const child of this.children) if (child.isNamed) n++;
    return n;
  }

  fieldNameForChild(i: number): string | null {
    const field = this.fields[i];
    // A field the conversion did not read: a walk asking for it is a bug, and the line is then kept whole.
    if (field === undefined) throw new Error(`field of child ${i} of ${this.type} was not read`);
    return field;
  }

  childForFieldName(name: string): SyntaxNode | null {
    for (let i = 0; i < this.children.length; i++) if (this.fieldNameForChild(i) === name) return this.children[i]!;
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (let i = 0; i < this.children.length; i++) if (this.fieldNameForChild(i) === name) out.push(this.children[i]!);
    return out;
  }
}

function isNamedNode(n: SyntaxNode): boolean {
  return n.isNamed;
}

/** Whether a parent's children's field names are read (see FIELDED): 0 none, 1 all, 2 those of anonymous children (`command`). */
export function fieldKind(type: string): 0 | 1 | 2 {
  return FIELDED.has(type) ? 1 : type === 'command' ? 2 : 0;
}

/**
 * Named-ness by type id, for the cursor reading: a property of the (public, alias-resolved) symbol the type id is,
 * so it is read once per id (test/gate/parse-tree.test.ts compares it with every node's own).
 */
const cursorNamed: boolean[] = [];

/** Type names and named-ness by type id: both are properties of the (public, alias-resolved) symbol. */
const typeNames: string[] = [];
const typeNamed: boolean[] = [];
const MAX_CACHED_ID = 4096;

/**
 * Reads the whole tree into SyntaxNodes with the runtime's own cursor functions (a handful of wasm calls per node,
 * no JS objects from web-tree-sitter). In a tree with an ERROR or MISSING node somewhere, each node's isError comes
 * from its type id, isMissing from the cursor, and hasError from the Node API when the walk asks (ADR 0076). A
 * runtime whose functions could not be reached is read through web-tree-sitter's Node API. Both readings are
 * compared with the Node API, flags included, by test/gate/parse-tree.test.ts.
 */
export function readTree(tree: Tree, hasError = treeHasError(tree)): SyntaxNode {
  const fns = cursorFunctions();
  const address = treeAddress(tree);
  if (fns === undefined || address === undefined) return readByNodes(tree.rootNode);
  return readByCursor(fns, address, internedTypes(tree.language.types), tree.language.fields, hasError ? new ErrorLookup(tree) : undefined);
}

let internedFrom: readonly string[] | undefined;
let interned: readonly string[] = [];

/**
 * The language's type names as internalized strings: web-tree-sitter decodes them from wasm memory, and V8 compares
 * such strings with the walk's literals character by character, where two internalized strings compare by identity.
 * Same values; made once per language (a property key is internalized, and Object.keys gives it back).
 */
function internedTypes(types: readonly string[]): readonly string[] {
  if (internedFrom !== types) {
    interned = types.map((t) => (typeof t === 'string' ? Object.keys({ [t]: 0 })[0]! : t));
    internedFrom = types;
  }
  return interned;
}

/** tree-sitter's id of the ERROR symbol (ts_builtin_sym_error): a node is an ERROR node exactly when its type id is this. */
const ERROR_TYPE_ID = 65535;

/**
 * A node's hasError in a tree with an error somewhere (ADR 0076). The cursor gives each node's type (so whether it
 * is an ERROR node) and whether it is MISSING, but not whether it holds one: a MISSING token of a hidden symbol is
 * never visited by the cursor, and an ERROR leaf can hold no error by tree-sitter's count (its hasError is false), so
 * no rule over the visited nodes is exact. tree-sitter's own answer is fetched through the Node API, by the node's
 * path of child indexes from the root — only for the nodes the walk asks about (statements). The tree must still
 * be alive.
 */
class ErrorLookup {
  constructor(private readonly tree: Tree) {}

  hasError(node: SyntaxNode): boolean {
    if (treeAddress(this.tree) === 0 || treeAddress(this.tree) === undefined) throw new Error('the syntax tree was deleted before its error flags were read');
    const path: number[] = [];
    for (let n = node; n.parent !== null; n = n.parent) path.push(n.parent.children.indexOf(n));
    let ts: TsNode | null = this.tree.rootNode;
    for (let i = path.length - 1; i >= 0 && ts !== null; i--) ts = ts.child(path[i]!);
    // A node the Node API does not find at the cursor's place: the readings disagree, and the line is kept whole.
    if (ts === null || ts.startIndex !== node.startIndex || ts.endIndex !== node.endIndex || ts.type !== node.type) {
      throw new Error('the cursor reading and the Node API disagree on a node');
    }
    return ts.hasError;
  }
}

/** Whether the tree has an ERROR or MISSING node anywhere (its root's hasError), in two wasm calls when it can. */
export function treeHasError(tree: Tree): boolean {
  const fns = cursorFunctions();
  const address = treeAddress(tree);
  if (fns === undefined || address === undefined) return tree.rootNode.hasError;
  fns._ts_tree_root_node_wasm(address);
  return fns._ts_node_has_error_wasm(address) === 1;
}

/** The tree's address in the runtime: web-tree-sitter keeps it at index 0 of the Tree object. */
function treeAddress(tree: Tree): number | undefined {
  const address = (tree as unknown as Record<number, unknown>)[0];
  return typeof address === 'number' ? address : undefined;
}

/**
 * One pass of the runtime's cursor over the tree. Without `errors` the tree has no error (every node's error flags
 * are false); with it, the flags are read as ErrorLookup says. The cursor
 * lives in the runtime's transfer buffer from its creation to its deletion: nothing else calls into the runtime
 * meanwhile (the walk is synchronous), and each call leaves it where the next one reads it.
 */
function readByCursor(
  fns: CursorBinding,
  t: number,
  types: readonly string[],
  fields: readonly (string | null)[],
  errors: ErrorLookup | undefined,
): SyntaxNode {
  fns._ts_tree_root_node_wasm(t);
  fns._ts_tree_cursor_new_wasm(t);
  // The children read so far of each node on the cursor's path, in one stack: when a node's last child is read, its
  // children are copied into an array of their own, of exactly their number, and taken off the stack.
  const kids = pendingKids;
  const names = pendingNames;
  const from = pendingFrom;
  try {
    const rootId = fns._ts_tree_cursor_current_node_type_id_wasm(t);
    const root = new SyntaxNode(
      types[rootId] || 'ERROR',
      fns._ts_tree_cursor_current_node_is_named_wasm(t) === 1,
      fns._ts_tree_cursor_start_index_wasm(t),
      fns._ts_tree_cursor_end_index_wasm(t),
      null,
      errors !== undefined && rootId === ERROR_TYPE_ID,
      errors !== undefined && fns._ts_tree_cursor_current_node_is_missing_wasm(t) === 1,
      // The root's flag was read exactly by the caller (treeHasError).
      errors !== undefined,
    );
    if (fns._ts_tree_cursor_goto_first_child_wasm(t) !== 1) return root;
    let parent = root;
    let kind = fieldKind(root.type);
    from.push(0);
    for (;;) {
      const id = fns._ts_tree_cursor_current_node_type_id_wasm(t);
      let named = cursorNamed[id];
      if (named === undefined) {
        named = fns._ts_tree_cursor_current_node_is_named_wasm(t) === 1;
        if (id < MAX_CACHED_ID) cursorNamed[id] = named;
      }
      const node = new SyntaxNode(
        types[id] || 'ERROR',
        named,
        fns._ts_tree_cursor_start_index_wasm(t),
        fns._ts_tree_cursor_end_index_wasm(t),
        parent,
        errors !== undefined && id === ERROR_TYPE_ID,
        errors !== undefined && fns._ts_tree_cursor_current_node_is_missing_wasm(t) === 1,
        errors ?? false,
      );
      kids.push(node);
      names.push(kind === 1 || (kind === 2 && !named) ? (fields[fns._ts_tree_cursor_current_field_id_wasm(t)] ?? null) : undefined);
      if (fns._ts_tree_cursor_goto_first_child_wasm(t) === 1) {
        from.push(kids.length);
        parent = node;
        kind = fieldKind(node.type);
        continue;
      }
      while (fns._ts_tree_cursor_goto_next_sibling_wasm(t) !== 1) {
        // `parent`'s last child has been read.
        const start = from.pop()!;
        parent.children = kids.slice(start);
        if (kind !== 0) parent.fields = names.slice(start);
        kids.length = start;
        names.length = start;
        fns._ts_tree_cursor_goto_parent_wasm(t);
        const up = parent.parent;
        if (up === null) return root; // back at the root
        parent = up;
        kind = fieldKind(up.type);
      }
    }
  } finally {
    fns._ts_tree_cursor_delete_wasm(t);
    kids.length = 0;
    names.length = 0;
    from.length = 0;
  }
}

/** The stacks of readByCursor, kept between readings (a reading is synchronous and never re-entered). */
const pendingKids: SyntaxNode[] = [];
const pendingNames: (string | null | undefined)[] = [];
const pendingFrom: number[] = [];

/**
 * The Node API's reading: one `children` call per node (which also gives each child's start), then its type id and
 * end; the error flags only when the tree has an error somewhere. Iterative, so a deeply nested tree cannot overflow
 * the stack here.
 */
function readByNodes(r: TsNode): SyntaxNode {
  const dirty = r.hasError;
  const root = new SyntaxNode(r.type, r.isNamed, r.startIndex, r.endIndex, null, dirty && r.isError, dirty && r.isMissing, dirty);
  const todo: TsNode[] = [r];
  const made: SyntaxNode[] = [root];
  while (todo.length > 0) {
    const ts = todo.pop()!;
    const node = made.pop()!;
    const tsKids = ts.children;
    if (tsKids.length === 0) continue;
    const kind = fieldKind(node.type);
    const children: SyntaxNode[] = [];
    const names: (string | null | undefined)[] = [];
    for (let i = 0; i < tsKids.length; i++) {
      const k = tsKids[i]!;
      const id = k.typeId;
      let type = typeNames[id];
      let named = typeNamed[id];
      if (type === undefined || named === undefined) {
        type = k.type;
        named = k.isNamed;
        // ERROR's id is 65535: kept out of the dense tables.
        if (id < MAX_CACHED_ID) {
          typeNames[id] = type;
          typeNamed[id] = named;
        }
      }
      const child = new SyntaxNode(type, named, k.startIndex, k.endIndex, node, dirty && k.isError, dirty && k.isMissing, dirty && k.hasError);
      children.push(child);
      names.push(kind === 1 || (kind === 2 && !named) ? ts.fieldNameForChild(i) : undefined);
      todo.push(k);
      made.push(child);
    }
    node.children = children;
    if (kind !== 0) node.fields = names;
  }
  return root;
}
