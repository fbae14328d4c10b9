// @lhncbc/ucum-lhc ships no types; this is the one function clinadmin calls.
declare module '@lhncbc/ucum-lhc' {
  export const UcumLhcUtils: {
    getInstance(): { validateUnitString(unit: string): { status: 'valid' | 'invalid' | 'error' } };
  };
}
