/**
 * A path of our record (`referenceRanges[0].low`) as the source names it, by the longest mapped prefix:
 * `paths` maps our paths to the source's (a FHIR element, an HL7 field). With `keepRest`, what follows the
 * prefix is kept (FHIR's elements nest like ours); without it, the source's field names the whole (an HL7
 * field holds a range in components, not in our sub-paths).
 */
export function sourcePath(paths: Record<string, string>, p: string, keepRest: boolean): string {
  const key = Object.keys(paths)
    .filter((k) => p === k || p.startsWith(`${k}.`) || p.startsWith(`${k}[`))
    .sort((a, b) => b.length - a.length)[0];
  if (key === undefined) return p;
  return keepRest ? `${paths[key]}${p.slice(key.length)}` : paths[key];
}
