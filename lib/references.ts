import type { JsonPath } from '@stoplight/types';
import { dirname, join, normalize, stripRoot } from '@stoplight/path';
import { isObject } from './json.js';
import { safeDecode } from './uri.js';

/** A `$ref` as it is written: the file it stands in (as Spectral names it), where, and its value. */
export interface WrittenReference {
  file: string;
  path: JsonPath;
  value: string;
}

/** The parsed files a description is made of, by the name Spectral gives them. */
export interface DescriptionFiles {
  documents: Map<string, unknown>;
  /**
   * Whether the resolver failed anywhere. A file that is not among the documents failed to load
   * only then; otherwise its name was computed differently from Spectral's, and nothing is said.
   */
  resolverFailed: boolean;
}

export type ReferenceOutcome =
  | { kind: 'resolves' }
  /** `broken` is the first `$ref` on the way whose target is missing; `through` the ones before it. */
  | { kind: 'broken'; broken: WrittenReference; through: WrittenReference[] }
  /** As `broken`, where the target's file did not load: `file` is its name, as the resolver names it. */
  | { kind: 'unloaded'; file: string; broken: WrittenReference; through: WrittenReference[] }
  /** `$ref`s that only point at each other, so none reaches a definition. */
  | { kind: 'loop'; members: WrittenReference[] };

type Target = { file: string; path: JsonPath; node: unknown } | 'missing' | 'unknown' | { unloaded: string };

/** Longest chain of `$ref`s followed; a real description needs a handful. */
const MAX_STEPS = 1000;

/**
 * Follows a `$ref` as the resolver does, from target to target while the target is itself only
 * a `$ref`, and says whether it reaches a definition. The resolver leaves a circular reference
 * unreplaced (valid) as it leaves a broken one; this tells them apart by looking the targets up.
 */
export function followReference(files: DescriptionFiles, start: WrittenReference): ReferenceOutcome {
  const chain: WrittenReference[] = [];
  const visited = new Map<string, number>();
  let current = start;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const key = placeKey(current.file, current.path);
    const seenAt = visited.get(key);
    if (seenAt !== undefined) return { kind: 'loop', members: chain.slice(seenAt) };
    visited.set(key, chain.length);
    chain.push(current);
    const target = targetOf(files, current.file, current.value);
    if (target === 'unknown') return { kind: 'resolves' };
    if (target === 'missing') return { kind: 'broken', broken: current, through: chain.slice(0, -1) };
    if ('unloaded' in target) return { kind: 'unloaded', file: target.unloaded, broken: current, through: chain.slice(0, -1) };
    if (!isObject(target.node) || typeof target.node.$ref !== 'string') return { kind: 'resolves' };
    current = { file: target.file, path: target.path, value: target.node.$ref };
  }
  return { kind: 'resolves' };
}

/** A stable name for a place in a file. */
export function placeKey(file: string, path: JsonPath): string {
  return `${file}#${path.map(String).join('\u0000')}`;
}

/**
 * What a `$ref` written in a file points at. A pointer that passes through another `$ref`
 * (`#/components/schemas/Alias/properties/a`) continues at that reference's target.
 */
function targetOf(files: DescriptionFiles, writtenIn: string, value: string, depth = 0): Target {
  if (depth > MAX_STEPS) return 'unknown';
  const hash = value.indexOf('#');
  const file = targetFileName(hash < 0 ? value : value.slice(0, hash), writtenIn);
  const segments = pointerSegments(hash < 0 ? '' : value.slice(hash + 1));
  if (segments === undefined) return 'missing';
  const document = documentOf(files, file);
  if (document === undefined) return files.resolverFailed ? { unloaded: file } : 'unknown';
  let node = document.data;
  for (let index = 0; index < segments.length; index += 1) {
    if (isObject(node) && typeof node.$ref === 'string') {
      const rest = segments.slice(index).map(encodeSegment).join('/');
      const via = targetOf(files, document.name, node.$ref, depth + 1);
      if (typeof via === 'string' || 'unloaded' in via) return via;
      return targetOf(files, via.file, `#${pointerOf(via.path)}/${rest}`, depth + 1);
    }
    const segment = segments[index] as string;
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) return 'missing';
    node = (node as Record<string, unknown>)[segment];
  }
  return { file: document.name, path: segments, node };
}

function documentOf(files: DescriptionFiles, name: string): { name: string; data: unknown } | undefined {
  if (files.documents.has(name)) return { name, data: files.documents.get(name) };
  // Windows paths: Spectral may name a file with either slash.
  const wanted = name.replace(/\\/g, '/');
  for (const [candidate, data] of files.documents) {
    if (candidate.replace(/\\/g, '/') === wanted) return { name: candidate, data };
  }
  return undefined;
}

/** A file named by a URL with a scheme (`https://...`), fetched rather than read from disk. */
export function isRemoteFile(file: string): boolean {
  return /^[a-z][a-z0-9+.-]+:\/\//i.test(file) && !/^file:/i.test(file);
}

/**
 * The name of the file a `$ref` points into, as the resolver names it: a URL resolved against a
 * URL; a file path joined to the directory of the file it is written in, with @stoplight/path,
 * which the resolver and Spectral name files with (`sub//a.yaml` and `sub/./a.yaml` are
 * `sub/a.yaml`; a path starting with `/` is joined too, as the resolver joins every path
 * without a scheme). Percent escapes in a file path are kept, as the resolver keeps them (it
 * looks for `x%20y.yaml` literally).
 */
function targetFileName(filePart: string, writtenIn: string): string {
  if (filePart === '') return writtenIn;
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(filePart)) return filePart;
  if (/^https?:\/\//i.test(writtenIn)) {
    try {
      // The resolver joins a path that starts with `/` below the document's folder, as it does for files.
      return new URL(/^\/(?!\/)/.test(filePart) ? `.${filePart}` : filePart, writtenIn).href;
    } catch {
      return filePart;
    }
  }
  return normalize(join(dirname(writtenIn), stripRoot(filePart)));
}

/** The segments of a URI-fragment JSON pointer, or undefined when it is no pointer. */
function pointerSegments(fragment: string): string[] | undefined {
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  return fragment.slice(1).split('/').map((segment) => safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function encodeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1').replace(/%/g, '%25');
}

function pointerOf(path: JsonPath): string {
  return path.map((segment) => `/${encodeSegment(segment)}`).join('');
}
