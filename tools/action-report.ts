/**
 * The GitHub Action's report (action.yml): the static lint's SARIF as made by nlgov-adr (Spectral
 * names itself in the driver), adr-check's results as workflow annotations when it ran (it writes
 * one format per run, and the action asks it for SARIF), and both runs in one SARIF log to upload.
 *
 * usage: tsx tools/action-report.ts <output.sarif> <static.sarif> [<adr-check.sarif>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { printable } from '../live/redaction.js';
import { isMain } from './util.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface SarifToolComponent {
  name: string;
  version?: string;
  semanticVersion?: string;
  informationUri?: string;
  rules?: Array<{ id: string; shortDescription?: { text: string }; helpUri?: string }>;
}
export interface SarifResult {
  ruleId?: string;
  level?: 'none' | 'note' | 'warning' | 'error';
  message: { text?: string };
  locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } } }>;
}
export interface SarifRun {
  tool: { driver: SarifToolComponent; extensions?: SarifToolComponent[] };
  results?: SarifResult[];
}
export interface SarifLog {
  $schema?: string;
  version: '2.1.0';
  runs: SarifRun[];
}

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string; homepage: string };

/** Spectral's run as nlgov-adr's: its name, version and home page in the driver, Spectral (which ran the rules) as an extension. */
export function asNlgovAdr(run: SarifRun): SarifRun {
  const { name, version, informationUri, ...driver } = run.tool.driver;
  const identity = { name: manifest.name, version: manifest.version, semanticVersion: manifest.version, informationUri: manifest.homepage };
  return { ...run, tool: { driver: { ...driver, ...identity }, extensions: [{ name, version, informationUri }] } };
}

const COMMANDS = { error: 'error', warning: 'warning', note: 'notice', none: 'notice' } as const;

/**
 * One workflow command per result. What adr-check reports may come from the server: control and
 * bidi characters are shown as escapes (as in adr-check's own annotations), then the workflow
 * command syntax is escaped.
 */
export function annotations(log: SarifLog): string[] {
  const data = (text: string) => printable(text).replace(/%/g, '%25');
  const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return log.runs.flatMap((run) =>
    (run.results ?? []).map((result) => {
      const title = result.ruleId === undefined ? '' : ` title=${property(result.ruleId)}`;
      return `::${COMMANDS[result.level ?? 'warning']}${title}::${data(result.message.text ?? '')}`;
    }),
  );
}

export function merged(staticLog: SarifLog, liveLog?: SarifLog): SarifLog {
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [...staticLog.runs.map(asNlgovAdr), ...(liveLog?.runs ?? [])] };
}

if (isMain(import.meta.url)) {
  const [output, staticFile, liveFile] = process.argv.slice(2);
  if (output === undefined || staticFile === undefined) throw new Error('usage: action-report <output.sarif> <static.sarif> [<adr-check.sarif>]');
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as SarifLog;
  const live = liveFile === undefined ? undefined : read(liveFile);
  if (live !== undefined) for (const line of annotations(live)) console.log(line);
  writeFileSync(output, `${JSON.stringify(merged(read(staticFile), live), null, 2)}\n`);
}
