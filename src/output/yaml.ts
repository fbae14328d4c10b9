import { Document, type ScalarTag, type Tags, visit } from 'yaml';
import { plainDecimal } from '../core/number.js';

// Text written plain only when every YAML reader takes it for text: a letter or _ first, then word
// characters, space, . / @ -, and not one of YAML 1.1's booleans and nulls (yes, on, y…) nor what a 1.1
// reader may take for a float with its digits left out (`e0`, as the yaml package's 1.1 schema does).
const PLAIN = /^[A-Za-z_][\w ./@-]*$/;
const RESERVED = /^(y|n|yes|no|true|false|on|off|null|[eE][-+]?[0-9]+)$/i;

/**
 * The schema's own int and float tags, but a number JSON would write with an exponent (`1e-7`, `1e+21`) is
 * written in plain digits, as every other output writes it, so that what we write we read.
 */
const plainNumbers = (tags: Tags): Tags =>
  tags.map((t) =>
    typeof t === 'object' &&
    (t.tag === 'tag:yaml.org,2002:int' || t.tag === 'tag:yaml.org,2002:float') &&
    t.default &&
    !t.format
      ? ({
          ...(t as ScalarTag),
          stringify: ((item, ...rest) =>
            typeof item.value === 'number' && /e/.test(String(item.value))
              ? plainDecimal(item.value)
              : (t as ScalarTag).stringify!(item, ...rest)) satisfies ScalarTag['stringify'],
        } as ScalarTag)
      : t,
  );

/**
 * `-o yaml` through the `yaml` package, readable alike by YAML 1.2 and 1.1 readers (PyYAML, many CI
 * tools): any other text is double-quoted, so `yes`, `0o7`, `2026-01-01` or a key `<<` (a merge to 1.1)
 * stay text. Long text is not folded (lineWidth 0), so a value stays on its line for grep and diff.
 */
export function toYaml(data: unknown): string {
  const doc = new Document(data, { customTags: plainNumbers });
  visit(doc, {
    Scalar(_, node) {
      const v = node.value;
      if (typeof v === 'string' && (!PLAIN.test(v) || RESERVED.test(v) || v.endsWith(' '))) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 }).replace(BREAKS, (c) => ESCAPES[c]);
}

// NEL and the line and paragraph separators are line breaks to YAML 1.1 (PyYAML reads a raw NEL in a quoted
// scalar as a folded line, a space): written as YAML's own escapes (\N, \L, \P in 1.1 and 1.2 alike). Text
// holding one is never plain (PLAIN is ASCII), so each stands inside double quotes, where the escape means it.
const BREAKS = /[\u0085\u2028\u2029]/g;
const ESCAPES: Record<string, string> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };
