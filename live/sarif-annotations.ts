import { fileURLToPath } from 'node:url';
import { HAS_SCHEME } from './finding-location.js';
import { printable } from './redaction.js';

/** The part of SARIF 2.1.0 that adr-check writes and the GitHub Action reads and merges. */
export interface SarifMessage { text?: string; markdown?: string }
export interface SarifReportingDescriptor {
  id: string;
  shortDescription?: { text: string };
  help?: { text: string; markdown?: string };
  helpUri?: string;
}
export interface SarifToolComponent {
  name: string;
  version?: string;
  semanticVersion?: string;
  informationUri?: string;
  properties?: Record<string, unknown>;
  rules?: SarifReportingDescriptor[];
}
export interface SarifLocation {
  physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } };
  logicalLocations?: Array<{ fullyQualifiedName?: string }>;
}
export interface SarifResult {
  ruleId?: string;
  level?: 'none' | 'note' | 'warning' | 'error';
  message: SarifMessage;
  locations?: SarifLocation[];
  properties?: Record<string, unknown>;
}
export interface SarifNotification { level?: 'none' | 'note' | 'warning' | 'error'; message: SarifMessage }
export interface SarifInvocation { executionSuccessful: boolean; exitCode?: number; toolExecutionNotifications?: SarifNotification[] }
export interface SarifRun {
  tool: { driver: SarifToolComponent; extensions?: SarifToolComponent[] };
  invocations?: SarifInvocation[];
  results?: SarifResult[];
}
export interface SarifLog {
  $schema?: string;
  version: '2.1.0';
  runs: SarifRun[];
}

const COMMANDS = { error: 'error', warning: 'warning', note: 'notice', none: 'notice' } as const;

/** A workflow command's message: the server's characters made visible, then the command syntax escaped. */
export function commandData(text: string): string {
  return printable(text).replace(/%/g, '%25');
}

/** A workflow command's property value: as its message, and `:` and `,` too. */
function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One workflow command per SARIF result, as GitHub Actions reads them (one per line). A result in
 * a file of the workspace (a relative reference) is annotated at its file and line; one whose
 * location is a URL (what a live run fetched) names that URL and line in the message, as a file
 * annotation cannot point there. Everything may come from a server: control and bidi characters
 * are shown as escapes, then the command syntax is escaped.
 */
export function annotations(log: SarifLog): string[] {
  return log.runs.flatMap((run) => {
    const helpUris = new Map((run.tool.driver.rules ?? []).map((rule) => [rule.id, rule.helpUri]));
    return (run.results ?? []).map((result) => {
      const physical = result.locations?.[0]?.physicalLocation;
      const uri = physical?.artifactLocation?.uri;
      const line = physical?.region?.startLine;
      const inWorkspace = uri !== undefined && !HAS_SCHEME.test(uri) && !uri.startsWith('/');
      const properties = [
        ...(result.ruleId === undefined ? [] : [`title=${commandProperty(result.ruleId)}`]),
        ...(inWorkspace ? [`file=${commandProperty(decodeUri(uri))}`, ...(line === undefined ? [] : [`line=${line}`])] : []),
      ];
      const shown = uri === undefined ? undefined : uri.startsWith('file:') ? filePath(uri) : uri;
      const place = shown !== undefined && !inWorkspace ? `%0A${commandData(line === undefined ? shown : `${shown}:${line}`)}` : '';
      const helpUri = result.ruleId === undefined ? undefined : helpUris.get(result.ruleId);
      const documentation = helpUri === undefined ? '' : `%0ADocumentation: ${commandData(helpUri)}`;
      const head = properties.length === 0 ? '' : ` ${properties.join(',')}`;
      return `::${COMMANDS[result.level ?? 'warning']}${head}::${commandData(result.message.text ?? '')}${place}${documentation}`;
    });
  });
}

/** A file:// URL as the path a person knows; one that is no path stays as it is. */
function filePath(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** A relative reference back to the path it names; one that does not decode stays as it is. */
function decodeUri(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}
