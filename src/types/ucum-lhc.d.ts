// @lhncbc/ucum-lhc ships no types; these are the functions clinadmin calls.
declare module '@lhncbc/ucum-lhc' {
  export const UcumLhcUtils: {
    getInstance(): {
      validateUnitString(
        unit: string,
        suggest?: boolean,
      ): {
        status: 'valid' | 'invalid' | 'error';
        ucumCode?: string | null;
        suggestions?: { units?: [string, string, unknown][] }[];
      };
      convertUnitTo(from: string, value: number, to: string): { status: string; toVal?: number | null };
    };
  };
}
