/**
 * Characters nobody types into an id or a code but that copy-paste, editors and careless clients add:
 * control characters (a trailing newline, NUL), format characters (a byte-order mark, zero-width
 * spaces), line separators and spaces other than U+0020. `Number()` and the regex `\s` skip some
 * of them, which read `\uFEFF1` or `1\n` as id 1; a value holding one is refused, naming it.
 */
import type { z } from 'zod';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/u;
const NAME: Record<number, string> = {
  0x00: 'NUL', 0x09: 'a tab', 0x0a: 'a line feed', 0x0d: 'a carriage return', 0xa0: 'a no-break space',
  0x200b: 'a zero-width space', 0xfeff: 'a byte-order mark',
};

/** The first hidden character of a value as `U+FEFF (a byte-order mark)`, or undefined. */
export function hiddenCharacter(value: string): string | undefined {
  const m = HIDDEN.exec(value);
  if (!m) return undefined;
  const code = m[0].codePointAt(0)!;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} (${NAME[code] ?? 'an invisible or control character'})`;
}

/** A zod check refusing a value with a hidden character: `<what>: it holds U+FEFF (a byte-order mark); …`. */
export function noHidden(what: string) {
  return (value: string, ctx: z.RefinementCtx): void => {
    const found = hiddenCharacter(value);
    if (found) ctx.addIssue({ code: 'custom', message: `${what}: it holds ${found}; send it without hidden characters`, input: value, abort: true });
  };
}
