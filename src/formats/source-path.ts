/**
 * A path of our record (`referenceRanges[0].low`) as the source names it, by the longest mapped prefix:
 * `paths` maps our paths to the source's (a FHIR element, an HL7 field). With `keepRest`, what follows the
 * prefix is kept (FHIR's elements nest like ours); without it, the source's field names the whole (an HL7
 * field holds a range in components, not in our sub-paths). Each prefix of `p` that ends before a `.` or `[`
 * is looked up, longest first, so a lookup costs the path's length, not the number of paths mapped.
 */
export function sourcePath(paths: Record<string, string>, p: string, keepRest: boolean): string {
  let end = p.length;
  while (end > 0) {
    const key = p.slice(0, end);
    if (Object.hasOwn(paths, key)) return keepRest ? `${paths[key]}${p.slice(end)}` : paths[key];
    end--;
    while (end > 0 && p[end] !== '.' && p[end] !== '[') end--;
  }
  return p;
}
