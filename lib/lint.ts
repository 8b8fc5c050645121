import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { Document, Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { httpAndFileResolver, type Resolver } from '@stoplight/spectral-ref-resolver';

export type Severity = 'error' | 'warn' | 'info' | 'hint';
const SEVERITY_NAMES: Severity[] = ['error', 'warn', 'info', 'hint'];

export interface Finding {
  code: string;
  severity: Severity;
  /** Dotted JSON path of the node the finding points at. */
  path: string;
  message: string;
  source?: string;
  line: number;
}

export function createLinter(ruleset: RulesetDefinition, resolver: Resolver = httpAndFileResolver): Spectral {
  const spectral = new Spectral({ resolver });
  spectral.setRuleset(ruleset);
  return spectral;
}

/** Lints text as a document at `source` (a file path: relative `$ref`s resolve against it). */
export async function lintText(spectral: Spectral, text: string, source: string): Promise<Finding[]> {
  return (await lintDiagnostics(spectral, text, source)).map(toFinding);
}

/** As lintText, Spectral's diagnostics as they are: for a caller that bounds what it keeps of them. */
export async function lintDiagnostics(spectral: Spectral, text: string, source: string): Promise<ISpectralDiagnostic[]> {
  const document = source.endsWith('.json') ? new Document(text, Parsers.Json, source) : new Document(text, Parsers.Yaml, source);
  return spectral.run(document, { ignoreUnknownFormat: false });
}

export async function lintFile(spectral: Spectral, file: string): Promise<Finding[]> {
  const source = resolvePath(file);
  return lintText(spectral, await readFile(source, 'utf8'), source);
}

export function toFinding(diagnostic: ISpectralDiagnostic): Finding {
  return {
    code: String(diagnostic.code),
    severity: SEVERITY_NAMES[diagnostic.severity] ?? 'hint',
    path: diagnostic.path.map(String).join('.'),
    message: diagnostic.message,
    source: diagnostic.source,
    line: diagnostic.range.start.line + 1,
  };
}
