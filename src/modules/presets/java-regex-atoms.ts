// Character-level tables of the Java → ECMAScript translation: escapes, POSIX and property classes, literals.

export const SYNTAX_CHARS = new Set([...'^$\\.*+?()[]{}|/'])
export const JAVA_SPACE = new Set([' ', '\t', '\n', '\u000b', '\f', '\r'])

/** Java's \s, \h, \v and the POSIX classes as ECMAScript class contents. */
export const CLASS_BODIES: Record<string, string> = {
  s: '\\t-\\r ',
  h: ' \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000',
  v: '\\n-\\r\\x85\\u2028\\u2029',
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: '\\t-\\r ',
}

/** Java property names (after `Is`, or `java…`) that ECMAScript knows under another name. */
export const PROPERTY_ALIASES: Record<string, string> = {
  Alphabetic: 'Alphabetic', Ideographic: 'Ideographic', Letter: 'L', Lowercase: 'Lowercase', Uppercase: 'Uppercase',
  Titlecase: 'Lt', Punctuation: 'P', Control: 'Cc', White_Space: 'White_Space', WhiteSpace: 'White_Space',
  Digit: 'Nd', Hex_Digit: 'Hex_Digit', HexDigit: 'Hex_Digit', Join_Control: 'Join_Control', JoinControl: 'Join_Control',
  Noncharacter_Code_Point: 'Noncharacter_Code_Point', NoncharacterCodePoint: 'Noncharacter_Code_Point', Assigned: 'Assigned', Emoji: 'Emoji',
  javaLowerCase: 'Lowercase', javaUpperCase: 'Uppercase', javaWhitespace: 'White_Space', javaMirrored: 'Bidi_Mirrored',
  javaLetter: 'L', javaDigit: 'Nd', javaAlphabetic: 'Alphabetic', javaIdeographic: 'Ideographic', javaTitleCase: 'Lt',
}

export const hex = (cp: number) => cp.toString(16).toUpperCase()

/** One code point as an ECMAScript atom that means exactly that character, in or out of a class. */
export function literal(cp: number, inClass = false): string {
  const ch = String.fromCodePoint(cp)
  if (SYNTAX_CHARS.has(ch) || (inClass && ch === '-')) return `\\${ch}`
  if (cp >= 0x20 && cp < 0x7f) return ch
  return `\\u{${hex(cp)}}`
}

/** Whether the ECMAScript property escape names a property the engine knows (Java names map onto these). */
export function isKnownProperty(escape: string): boolean {
  try {
    new RegExp(escape, 'u')
    return true
  } catch {
    return false
  }
}

/** The code point an ECMAScript class atom produced by `literal` (or a simple escape) stands for. */
export function singleChar(atom: string): number | undefined {
  const simple: Record<string, number> = { '\\t': 9, '\\n': 10, '\\r': 13, '\\f': 12, '\\x07': 7, '\\x1B': 27 }
  if (atom in simple) return simple[atom]
  const u = /^\\u\{([0-9A-F]+)\}$/.exec(atom)
  if (u) return parseInt(u[1], 16)
  if (/^\\[\^$\\.*+?()[\]{}|/-]$/.test(atom)) return atom.codePointAt(1)
  const chars = [...atom]
  return chars.length === 1 ? atom.codePointAt(0) : undefined
}
