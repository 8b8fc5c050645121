import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LAB_FIXTURES = fileURLToPath(new URL('../../fixtures/lab/', import.meta.url));

/** Runs a lab tool to its end; a missing tool names the package tools/system-packages.sh installs. */
export function runLabTool(command: string, args: string[], why: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`${command} not found: ${why} (tools/system-packages.sh installs it): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
}

/** The lab's three buildings in RD New (EPSG:28992), layer `gebouwen`, as a GeoPackage made by ogr2ogr (gdal-bin). */
export function makeGebouwenGeoPackage(file: string): void {
  runLabTool('ogr2ogr', ['-f', 'GPKG', file, join(LAB_FIXTURES, 'gebouwen.geojson'), '-nln', 'gebouwen', '-a_srs', 'EPSG:28992', '-lco', 'FID=fid'], 'gdal-bin makes the data set');
}
