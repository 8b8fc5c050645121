import semver from 'semver';

/**
 * Strict SemVer 2.0.0: semver.parse without `loose` still accepts a leading `v` or `=` and
 * surrounding spaces, so the parsed form must spell the input exactly.
 */
export function strictSemver(value: unknown): semver.SemVer | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = semver.parse(value, { loose: false });
  if (parsed === null) return undefined;
  const spelled = parsed.build.length > 0 ? `${parsed.version}+${parsed.build.join('.')}` : parsed.version;
  return spelled === value ? parsed : undefined;
}
