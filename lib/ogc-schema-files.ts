import { readFileSync } from 'node:fs';
import { ogcSchemaLookup } from './ogc-schemas.js';

/**
 * schemas/ogc/ of this package: beside lib/ in the source, beside dist/ when built (each build
 * that imports this module is a file directly in dist/).
 */
const DIRECTORY = new URL('../schemas/ogc/', import.meta.url);
const texts = new Map<string, string>();

export type OgcSchemaRead =
  | { kind: 'packaged'; text: string }
  | { kind: 'not-packaged'; message: string }
  | { kind: 'other' };

/** The text of the packaged copy an OGC schema URL names (schemas.opengis.net, the OGC's repositories on raw.githubusercontent.com; lib/ogc-schemas.ts), read once. */
export function readOgcSchema(url: string): OgcSchemaRead {
  const lookup = ogcSchemaLookup(url);
  if (lookup.kind !== 'packaged') return lookup;
  let text = texts.get(lookup.file);
  if (text === undefined) {
    text = readFileSync(new URL(lookup.file, DIRECTORY), 'utf8');
    texts.set(lookup.file, text);
  }
  return { kind: 'packaged', text };
}
