import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { boundedText } from './bounded-text.js';
import { shapeOf } from './depth.js';

/**
 * The limits every document the lint reads is held to before Spectral parses it: the description
 * and each document its `$ref`s name, JSON or YAML. Spectral's own parsers expand YAML aliases
 * for real (a few hundred bytes can stand for billions of nodes), recurse on nesting, and compare
 * each member of an object with the ones before it (an object of 100,000 members costs minutes).
 * These are measured here first, in linear time and without expanding anything.
 */
export interface DocumentLimits {
  /** Levels of nesting, aliases followed. */
  maxDepth: number;
  /** Members of one object (mapping). */
  maxMembers: number;
  /** Alias nodes (`*name`) in one YAML document. */
  maxAliases: number;
  /** Nodes that the aliases of one YAML document add when expanded. */
  maxAliasNodes: number;
  /**
   * Characters of a path (keys joined with dots). Spectral tells findings apart by their path in a
   * Set, where V8 hashes a string of over 16,383 characters by its length alone: a long key under
   * many findings costs it time quadratic in their number, and memory as their number times its length.
   */
  maxPathLength: number;
}

export const DOCUMENT_LIMITS: DocumentLimits = { maxDepth: 1000, maxMembers: 25_000, maxAliases: 1_000, maxAliasNodes: 100_000, maxPathLength: 10_000 };

export type Reading =
  /** `syntaxError`: the first of a YAML text's errors; its data is what could be read. */
  | { kind: 'accepted'; data: () => unknown; syntaxError?: string }
  /** `reason` completes "the document ...": `nests more than 1000 levels deep (1001 at a.b)`. */
  | { kind: 'refused'; reason: string; tooDeep?: { depth: number; path: string } };

/** Reads a JSON or YAML text within the limits, or says which one it exceeds. */
export function readDocument(text: string, limits: DocumentLimits): Reading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return readYaml(text, limits);
  }
  const shape = shapeOf(json, limits.maxDepth);
  if (shape.depth > limits.maxDepth) return tooDeep(shape.depth, shownPath(shape.path), limits);
  if (shape.members > limits.maxMembers) return tooWide(shape.members, shownPath(shape.membersPath), limits);
  if (shape.pathLength > limits.maxPathLength) return tooLong(shape.pathLength, shownPath(shape.longestPath), limits);
  return { kind: 'accepted', data: () => json };
}

function readYaml(text: string, limits: DocumentLimits): Reading {
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.some((error) => /call stack/i.test(error.message))) return { kind: 'refused', reason: `nests too deeply to be parsed (more than ${limits.maxDepth} levels)` };
  const refusal = yamlRefusal(document.contents, limits);
  if (refusal !== undefined) return refusal;
  const syntaxError = document.errors[0]?.message;
  return { kind: 'accepted', data: () => document.toJS({ maxAliasCount: -1 }) as unknown, ...(syntaxError === undefined ? {} : { syntaxError }) };
}

/** `reach`: characters of the longest path below the node, from it (as its aliases would add it to theirs). */
interface Size { nodes: number; depth: number; reach: number }
interface Frame extends Size { node: object; children: unknown[]; next: number; key: string; pathLength: number }

/**
 * Walks the YAML syntax tree once, children before parents, without recursion: each node's size
 * depth and longest path as they would be with its aliases expanded, an alias counting as the
 * node it names.
 */
function yamlRefusal(root: unknown, limits: DocumentLimits): Reading | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const anchored = new Map<string, object>();
  const measured = new WeakMap<object, Size>();
  const open = new WeakSet<object>();
  let aliases = 0;
  let aliasNodes = 0;
  const stack: Frame[] = [];
  const enter = (node: object, key: string, pathLength: number): Reading | undefined => {
    const children = childrenOf(node);
    if (isMap(node) && node.items.length > limits.maxMembers) return tooWide(node.items.length, pathOfStack(stack, key), limits);
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor !== undefined) { anchored.set(anchor, node); open.add(node); }
    stack.push({ node, children, next: 0, nodes: 1, depth: 0, reach: 0, key, pathLength });
    return stack.length > limits.maxDepth ? tooDeep(stack.length, pathOfStack(stack.slice(0, -1), key), limits) : undefined;
  };
  const entered = enter(root, '', 0);
  if (entered !== undefined) return entered;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next];
      const key = isMap(frame.node) ? childKey(frame.node, frame.next) : String(frame.next);
      frame.next += 1;
      const pathLength = frame.pathLength + (stack.length === 1 ? 0 : 1) + key.length;
      if (pathLength > limits.maxPathLength) return tooLong(pathLength, pathOfStack(stack, key), limits);
      if (typeof child !== 'object' || child === null) continue;
      if (!isAlias(child)) {
        const refusal = enter(child, key, pathLength);
        if (refusal !== undefined) return refusal;
        continue;
      }
      aliases += 1;
      if (aliases > limits.maxAliases) return { kind: 'refused', reason: `uses more than ${limits.maxAliases.toLocaleString('en-US')} YAML aliases` };
      const target = anchored.get(child.source);
      if (target === undefined) continue;
      if (open.has(target)) return { kind: 'refused', reason: `has a YAML alias inside the node it names (*${child.source.slice(0, 100)}): it never ends when expanded` };
      const size = measured.get(target) ?? { nodes: 1, depth: 1, reach: 0 };
      aliasNodes += size.nodes;
      if (aliasNodes > limits.maxAliasNodes) return { kind: 'refused', reason: `grows by more than ${limits.maxAliasNodes.toLocaleString('en-US')} nodes through its YAML aliases (*${child.source.slice(0, 100)} and others)` };
      grow(frame, key, size);
      if (stack.length + size.depth > limits.maxDepth) return tooDeep(stack.length + size.depth, pathOfStack(stack, key), limits);
      if (pathLength + size.reach > limits.maxPathLength) return tooLong(pathLength + size.reach, pathOfStack(stack, key), limits);
      continue;
    }
    stack.pop();
    const size = { nodes: frame.nodes, depth: frame.depth + 1, reach: frame.reach };
    if (open.has(frame.node)) { open.delete(frame.node); measured.set(frame.node, size); }
    const parent = stack[stack.length - 1];
    if (parent !== undefined) grow(parent, frame.key, size);
  }
  return undefined;
}

/** A parent takes in a child's size (a node of its own or an alias's target) under `key`. */
function grow(parent: Frame, key: string, child: Size): void {
  parent.nodes += child.nodes;
  parent.depth = Math.max(parent.depth, child.depth);
  parent.reach = Math.max(parent.reach, key.length + (child.reach > 0 ? 1 + child.reach : 0));
}

function childrenOf(node: object): unknown[] {
  if (isMap(node)) return node.items.flatMap((pair) => [pair.key, pair.value]);
  if (isSeq(node)) return node.items;
  if (isPair(node)) return [node.key, node.value];
  return [];
}

/** The key of a map's child at `index` in childrenOf (keys and values alternate), for a path. */
function childKey(map: { items: Array<{ key: unknown }> }, index: number): string {
  const key = map.items[Math.floor(index / 2)]?.key;
  return isScalar(key) ? String(key.value) : '?';
}

function pathOfStack(stack: Frame[], last: string): string {
  return shownPath([...stack.slice(1).map((frame) => frame.key), last]);
}

/** A path for a message: its first 12 keys, each cut at 100 characters. */
function shownPath(keys: string[]): string {
  return keys.slice(0, 12).map((key) => boundedText(key, 100)).join('.');
}

function tooDeep(depth: number, path: string, limits: DocumentLimits): Reading {
  return { kind: 'refused', reason: `nests more than ${limits.maxDepth} levels deep (${depth} at ${path || 'the root'})`, tooDeep: { depth, path } };
}

function tooLong(length: number, path: string, limits: DocumentLimits): Reading {
  return { kind: 'refused', reason: `has a path of ${length.toLocaleString('en-US')} characters (${path}); at most ${limits.maxPathLength.toLocaleString('en-US')} are read` };
}

function tooWide(members: number, path: string, limits: DocumentLimits): Reading {
  return { kind: 'refused', reason: `has an object of ${members.toLocaleString('en-US')} members (at ${path || 'the root'}); at most ${limits.maxMembers.toLocaleString('en-US')} are read` };
}
