// Covers: src/formats/hl7/syntax.ts src/formats/hl7/master-file.ts
import { describe, expect, it } from 'vitest';
import { masterRecords, value } from '../../src/formats/hl7/master-file.js';
import { escapeHl7, looksLikeHl7, segments, unescapeHl7 } from '../../src/formats/hl7/syntax.js';

// HL7 v2.5.1 chapter 2's encoding rules, with expected values read off the standard's own definitions:
// MSH-1/MSH-2 declare the separators (2.5.4), escape sequences \F\ \S\ \T\ \R\ \E\ and \Xhh\ (2.7), segments
// end in a carriage return (2.5.1), which files also end in \n or \r\n.

const msg = (...lines: string[]) => lines.join('\r');
const M08 = 'MSH|^~\\&|LAB||LIS||20261120083000||MFN^M08^MFN_M08|1|P|2.5.1';

describe('HL7 v2 segments', () => {
  it('reads fields, repetitions, components and subcomponents with the separators MSH declares', () => {
    const [msh, om2] = segments(msg(M08, 'OM2|1|mg/dL^^UCUM|3.1|||3.5&5.1^M^18&65~3.7&5.9^F'), 'f.hl7');
    expect(value(msh, 9, 1)).toBe('MFN');
    expect(value(msh, 9, 2)).toBe('M08');
    expect(value(msh, 1)).toBe('|');
    expect(value(msh, 2)).toBe('^~\\&');
    expect(value(om2, 2, 3)).toBe('UCUM');
    expect(value(om2, 6, 1, 0, 2)).toBe('5.1');
    expect(value(om2, 6, 3, 0, 1)).toBe('18');
    expect(value(om2, 6, 2, 1)).toBe('F');
    expect(value(om2, 6, 1, 1, 1)).toBe('3.7');
  });

  it('reads other separators when MSH declares them', () => {
    const text = msg('MSH#*!@%#LAB####20261120##MFN*M08#1#P#2.5.1', 'OM1#1#2345-7*Glucose @F@ fasting*LN#NM');
    const [msh, om1] = segments(text, 'f.hl7');
    expect(value(msh, 9, 2)).toBe('M08');
    expect(value(om1, 2, 2)).toBe('Glucose # fasting');
  });

  it('ends segments in \\r, \\n or \\r\\n and passes over blank lines and a byte order mark', () => {
    const lines = [M08, 'MFI|OMA', 'MFE|MAD|1||2345-7^Glucose^LN|CWE', 'OM1|1|2345-7^Glucose^LN|NM'];
    for (const end of ['\r', '\n', '\r\n']) {
      const segs = segments(`\uFEFF${lines.join(end)}${end}${end}`, 'f.hl7');
      expect(segs.map((s) => s.name)).toEqual(['MSH', 'MFI', 'MFE', 'OM1']);
      expect(segs.map((s) => s.number)).toEqual([1, 2, 3, 4]);
    }
  });

  it('unescapes \\F\\ \\S\\ \\T\\ \\R\\ \\E\\ and hex after splitting: an escaped separator stays in its value', () => {
    const [, om1] = segments(msg(M08, 'OM1|1|X1^Na\\F\\K \\T\\ Cl\\S\\ratio \\R\\ \\E\\ \\X0A\\end^L'), 'f.hl7');
    expect(value(om1, 2, 2)).toBe('Na|K & Cl^ratio ~ \\ \nend');
    expect(value(om1, 2, 3)).toBe('L');
  });

  it('escapes what it writes so that unescape gives it back', () => {
    const s = { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' };
    for (const text of ['a|b^c&d~e\\f', 'line\rbreak\n', 'plain', '\\F\\ literally'])
      expect(unescapeHl7(escapeHl7(text, s), s, () => 'here')).toBe(text);
    expect(escapeHl7('a|b^c&d~e\\f', s)).toBe('a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f');
  });

  it('knows HL7 by its first segment', () => {
    expect(looksLikeHl7(msg(M08))).toBe(true);
    expect(looksLikeHl7('FHS|^~\\&|LAB')).toBe(true);
    expect(looksLikeHl7('[{"name":"x"}]')).toBe(false);
    expect(looksLikeHl7('MSHx')).toBe(false);
  });
});

describe('errors name the segment, the field and what was expected', () => {
  it('refuses another message type, saying which', () => {
    const text = msg('MSH|^~\\&|LAB||LIS||20261120||ORU^R01^ORU_R01|1|P|2.5.1', 'PID|1');
    expect(() => masterRecords(text, 'results.hl7')).toThrow(
      'results.hl7 segment 1 (MSH-9): ORU^R01 is not a master file of observations; clinadmin reads MFN^M08',
    );
  });

  it('refuses a segment that is not one, an unclosed escape, and bad encoding characters', () => {
    expect(() => segments(msg(M08, 'MFI|OMA', 'hello world'), 'f.hl7')).toThrow(
      'f.hl7 segment 3 (line 3): expected a segment name of three capitals or digits, found "hello world"',
    );
    const [, om1] = segments(msg(M08, 'OM1|1|X^Na\\F'), 'f.hl7');
    expect(() => value(om1, 2, 2)).toThrow('segment 2 (OM1-2): an escape sequence is not closed: "\\F"');
    expect(() => segments('MSH|^^\\&|LAB', 'f.hl7')).toThrow('f.hl7 segment 1 (MSH): MSH-2 must declare four distinct');
    const [, bad] = segments(msg(M08, 'OM1|1|X^Na\\Q\\'), 'f.hl7');
    expect(() => value(bad, 2, 2)).toThrow('unknown escape sequence "\\Q\\"');
  });

  it('refuses OM segments before any MFE, and segments before any header', () => {
    expect(() => masterRecords(msg(M08, 'OM1|1|X^Y'), 'f.hl7')).toThrow('f.hl7 segment 2 (OM1): OM1 before any MFE');
    expect(() => segments('MFE|MAD|1', 'f.hl7')).toThrow('MFE comes before any MSH, FHS or BHS');
  });
});
