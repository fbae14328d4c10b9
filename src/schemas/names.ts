// A name is read by a person choosing between records: a character that draws nothing, or that reorders what
// follows, makes two different names look the same. Zod-free, so a prompt checks an answer without loading zod.

/** What a person calls the characters most often met in look-alike names. */
const CALLED: Readonly<Record<number, string>> = {
  173: 'soft hyphen',
  1564: 'arabic letter mark',
  6158: 'mongolian vowel separator',
  8203: 'zero width space',
  8204: 'zero width non-joiner',
  8205: 'zero width joiner',
  8206: 'left-to-right mark',
  8207: 'right-to-left mark',
  8232: 'line separator',
  8233: 'paragraph separator',
  8234: 'left-to-right embedding',
  8235: 'right-to-left embedding',
  8236: 'pop directional formatting',
  8237: 'left-to-right override',
  8238: 'right-to-left override',
  8288: 'word joiner',
  8294: 'left-to-right isolate',
  8295: 'right-to-left isolate',
  8296: 'first strong isolate',
  8297: 'pop directional isolate',
  65279: 'zero width no-break space',
};

// C0 and C1 controls and DEL (Cc), format characters (Cf: zero-width, bidi), line and paragraph separators,
// and lone surrogates, which no UTF-8 text can hold.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Why `text` cannot be a name, naming its first hidden character by code point; undefined when it can. */
export function hiddenInName(text: string): string | undefined {
  const m = HIDDEN.exec(text);
  if (!m) return undefined;
  const cp = m[0].codePointAt(0)!;
  const kind = /\p{Cc}/u.test(m[0])
    ? 'a control character'
    : /\p{Cs}/u.test(m[0])
      ? 'a lone surrogate'
      : 'an invisible format character';
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const why = 'it draws nothing or reorders the text, so two names would look alike';
  return `${code} (${CALLED[cp] ?? kind}) is not allowed: ${why}`;
}

/** The form two names are compared in: NFC, so "Na\u0308me" and "Näme" are one name. */
export const sameNameForm = (text: string) => text.normalize('NFC');

/** A name typed at a prompt, checked as create checks it: true, or the reason it is asked again. */
export const nameAnswer = (value: string): true | string => {
  const hidden = hiddenInName(value);
  return hidden ? `name: ${hidden}` : true;
};
