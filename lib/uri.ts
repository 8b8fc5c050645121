/** A percent-encoded URI segment decoded, or as it is when its escapes are malformed (`%zz`): a strange document is no reason to throw. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
