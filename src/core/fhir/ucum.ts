// Whether a unit is valid UCUM, by the NLM's own UCUM library; loaded only when a FHIR export needs it.

let check: ((unit: string) => boolean) | undefined;

export async function ucumChecker(): Promise<(unit: string) => boolean> {
  if (check) return check;
  // A CommonJS package: bundled, its exports may arrive as the namespace or under `default`.
  const mod = (await import('@lhncbc/ucum-lhc')) as typeof import('@lhncbc/ucum-lhc') & {
    default?: typeof import('@lhncbc/ucum-lhc');
  };
  const utils = (mod.UcumLhcUtils ?? (mod.default as typeof mod).UcumLhcUtils).getInstance();
  const seen = new Map<string, boolean>();
  check = (unit) => {
    let valid = seen.get(unit);
    if (valid === undefined) {
      valid = unit.trim() !== '' && utils.validateUnitString(unit).status === 'valid';
      seen.set(unit, valid);
    }
    return valid;
  };
  return check;
}
