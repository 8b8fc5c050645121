/** A percent-encoded URI segment decoded, or as it is when its escapes are malformed (`%zz`): a strange document is no reason to throw. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The first `length` characters as a string of their own. V8 makes `slice` of a long string a
 * view that keeps the whole string alive: an excerpt kept for a report must not hold on to the
 * megabytes of body it was cut from.
 */
export function detachedPrefix(text: string, length: number): string {
  if (text.length <= length) return text;
  const prefix = text.slice(0, length);
  return JSON.parse(JSON.stringify(prefix)) as string;
}
