// Word decoding: what a word of the syntax tree means after quote removal (`s\udo` → `sudo`, `$'\x72m'` → `rm`),
// and how it was written (literal, glob or dynamic) — only literal words can make a part safe.
import type { SyntaxNode } from './tree.js';
import type { WordShape } from '../types.js';
import { decodeAnsiC, roughSegments, unescapeDoubleQuoted, unescapeUnquoted } from '../words.js';
import type { Collector } from './context.js';

export function testWords(c: Collector, node: SyntaxNode): string[] {
  const text = c.slice(node);
  const open = text.startsWith('[[') ? '[[' : '[';
  const close = open === '[[' ? ']]' : ']';
  const inner = text.slice(open.length, text.endsWith(close) ? -close.length : undefined);
  const words = [open];
  for (const segment of roughSegments(inner)) for (const w of segment) words.push(w);
  words.push(close);
  return words;
}

export function declarationWords(c: Collector, node: SyntaxNode): string[] {
  const words: string[] = [];
  for (const child of node.children) {
    if (!child.isNamed) {
      if (/^[a-z]+$/.test(child.type)) words.push(child.type); // export, local, declare, unset …
      continue;
    }
    words.push(child.type === 'variable_assignment' ? assignmentWord(c, child) : wordValue(c, child));
  }
  return words;
}

export function assignmentWord(c: Collector, node: SyntaxNode): string {
  const value = node.childForFieldName('value');
  const name = node.childForFieldName('name');
  const nameText = name ? c.slice(name) : '';
  const op = node.children.find((n) => !n.isNamed && (n.type === '=' || n.type === '+='))?.type ?? '=';
  return nameText + op + (value ? wordValue(c, value) : '');
}

/** A word's value after quote removal; expansions and substitutions stay as written (their value is unknown). */
export function wordValue(c: Collector, node: SyntaxNode): string {
  switch (node.type) {
    case 'word':
      return unescapeUnquoted(c.slice(node));
    case 'raw_string':
      return c.slice(node).slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(c.slice(node).slice(2, -1));
    case 'string':
      return stringValue(c, node, node.startIndex + 1, node.endIndex - 1);
    case 'translated_string': {
      const inner = node.namedChildren[0];
      return inner ? wordValue(c, inner) : c.slice(node).slice(2, -1);
    }
    case 'concatenation': {
      let out = '';
      let pos = node.startIndex;
      const children = node.children;
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (child.startIndex > pos) out += unescapeUnquoted(c.src.slice(pos, child.startIndex));
        // `$"…"` inside a word (`"su"$"do"`): the `$` only marks a translated string and adds nothing.
        const next = children[i + 1];
        const translationMark = child.type === '$' && next?.type === 'string' && next.startIndex === child.endIndex;
        if (!translationMark) out += wordValue(c, child);
        pos = child.endIndex;
      }
      if (node.endIndex > pos) out += unescapeUnquoted(c.src.slice(pos, node.endIndex));
      return out;
    }
    default:
      return c.slice(node);
  }
}

/** The inside of `"…"`: literal stretches unescaped, expansions kept as written. */
export function stringValue(c: Collector, node: SyntaxNode, from: number, to: number): string {
  let out = '';
  let pos = from;
  for (const child of node.children) {
    if (child.startIndex < from || child.endIndex > to) continue; // the quotes themselves
    if (child.startIndex > pos) out += unescapeDoubleQuoted(c.src.slice(pos, child.startIndex));
    out += child.type === 'string_content' ? unescapeDoubleQuoted(c.slice(child)) : c.slice(child);
    pos = child.endIndex;
  }
  if (to > pos) out += unescapeDoubleQuoted(c.src.slice(pos, to));
  return out;
}

/**
 * How a word was written: `literal` (plain text and quoted literals), `glob` (unquoted `*`, `?` or `[`: the shell
 * replaces it with file names), or `dynamic` (any expansion, substitution, brace expansion or odd syntax).
 */
export function wordShape(c: Collector, node: SyntaxNode): WordShape {
  switch (node.type) {
    case 'word':
    case 'number':
      return unquotedShapeIn(c.src, node.startIndex, node.endIndex);
    case 'raw_string':
    case 'ansi_c_string':
      return 'literal';
    case 'string':
      return onlyStringContent(node) && !expandsOutsideEscapes(c.src, node.startIndex, node.endIndex) ? 'literal' : 'dynamic';
    case 'translated_string': {
      const inner = node.namedChildren[0];
      return inner ? wordShape(c, inner) : 'literal';
    }
    case 'concatenation': {
      let shape: WordShape = 'literal';
      let pos = node.startIndex;
      for (const child of node.children) {
        if (child.startIndex > pos) shape = joinShapes(shape, unquotedShapeIn(c.src, pos, child.startIndex));
        // `$"…"` inside a word: the `$` only marks a translated string.
        if (child.type !== '$') shape = joinShapes(shape, wordShape(c, child));
        pos = child.endIndex;
      }
      if (node.endIndex > pos) shape = joinShapes(shape, unquotedShapeIn(c.src, pos, node.endIndex));
      return shape;
    }
    default:
      return 'dynamic';
  }
}

/** Whether every named child of a `"…"` is literal text (no expansion or substitution node). */
function onlyStringContent(node: SyntaxNode): boolean {
  for (const n of node.children) if (n.isNamed && n.type !== 'string_content') return false;
  return true;
}

/**
 * Whether src[from, to) holds a `$` or a backtick once every backslash and the character after it are taken out
 * (what `/[$`]/` finds in the text with `/\\[\s\S]/g` removed; a final lone backslash stays and is neither).
 */
function expandsOutsideEscapes(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const ch = src.charCodeAt(i);
    if (ch === 0x5c /* \ */) {
      if (i + 1 < to) i++;
      continue;
    }
    if (ch === 0x24 /* $ */ || ch === 0x60 /* ` */) return true;
  }
  return false;
}

/** Unquoted text: backslash-escaped characters are literal; `$`, backticks, parentheses, braces are not. */
export function unquotedShape(text: string): WordShape {
  return unquotedShapeIn(text, 0, text.length);
}

/**
 * unquotedShape of src[from, to), read in place (no slice, no one-character strings): the walk asks it of every
 * unquoted word and of the unquoted stretches of a concatenation.
 */
export function unquotedShapeIn(src: string, from: number, to: number): WordShape {
  let shape: WordShape = 'literal';
  for (let i = from; i < to; i++) {
    switch (src.charCodeAt(i)) {
      case 0x5c: // \ : the next character is literal
        i++;
        continue;
      case 0x24: // $
      case 0x60: // `
      case 0x28: // (
      case 0x29: // )
      case 0x7b: // {
      case 0x7d: // }
      case 0x3c: // <
      case 0x3e: // >
      case 0x7c: // |
      case 0x3b: // ;
      case 0x26: // &
      case 0x27: // '
      case 0x22: // "
        if (to - from === 2 && src.charCodeAt(from) === 0x7b && src.charCodeAt(from + 1) === 0x7d) continue; // find's placeholder `{}`, not a brace expansion
        return 'dynamic';
      case 0x2a: // *
      case 0x3f: // ?
      case 0x5b: // [
        shape = 'glob';
    }
  }
  return shape;
}

export function joinShapes(a: WordShape, b: WordShape): WordShape {
  if (a === 'dynamic' || b === 'dynamic') return 'dynamic';
  return a === 'glob' || b === 'glob' ? 'glob' : 'literal';
}
