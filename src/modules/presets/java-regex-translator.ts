import { JavaRegexError } from './java-regex-error.js'
import { CLASS_BODIES, isKnownProperty, JAVA_SPACE, literal, PROPERTY_ALIASES, singleChar } from './java-regex-atoms.js'

// The lexer of java-regex.ts: rewrites a Java pattern into the equivalent ECMAScript (unicode mode) pattern,
// refusing with Java's wording every construct Java refuses and every Java construct we do not support.

interface InlineFlags { i: boolean; m: boolean; s: boolean; x: boolean }

interface OpenGroup {
  /** `)` to add when this group closes: one per inline-flag group opened inside it */
  extraCloses: number
  /** flags in force before the group opened (restored when it closes) */
  flagsBefore: InlineFlags
}

const JAVA_FLAG_LETTERS = new Set(['i', 'd', 'm', 's', 'u', 'x', 'U'])
export class Translator {
  private i = 0
  private out = ''
  private flags: InlineFlags = { i: false, m: false, s: false, x: false }
  private readonly groups: OpenGroup[] = [{ extraCloses: 0, flagsBefore: { ...this.flags } }]
  private capturingGroups = 0
  private readonly names = new Set<string>()

  constructor(private readonly src: string) {}

  private fail(message: string, at = this.i): never {
    throw new JavaRegexError(`${message} near index ${at}`, at)
  }

  private peek(offset = 0): string | undefined {
    const cp = this.src.codePointAt(this.i + offset)
    return cp === undefined ? undefined : String.fromCodePoint(cp)
  }

  private next(): string {
    const ch = this.peek()
    if (ch === undefined) this.fail('Unexpected end of pattern')
    this.i += ch.length
    return ch
  }

  /** In comments mode (?x) whitespace and `#…` line comments are not part of the pattern. */
  private skipComments(): void {
    if (!this.flags.x) return
    for (;;) {
      const ch = this.peek()
      if (ch !== undefined && JAVA_SPACE.has(ch)) this.i++
      else if (ch === '#') {
        while (this.peek() !== undefined && this.peek() !== '\n' && this.peek() !== '\r') this.i++
      } else return
    }
  }

  translate(): string {
    for (;;) {
      this.skipComments()
      const ch = this.peek()
      if (ch === undefined) break
      this.atom()
    }
    if (this.groups.length > 1) this.fail('Unclosed group', this.src.length)
    this.out += ')'.repeat(this.groups[0].extraCloses)
    return this.out
  }

  private atom(): void {
    const start = this.i
    const ch = this.next()
    switch (ch) {
      case '\\':
        this.out += this.escape(false)
        break
      case '[':
        this.out += this.characterClass(start)
        break
      case '(':
        this.openGroup(start)
        return
      case ')':
        this.closeGroup(start)
        break
      case '|':
      case '^':
      case '$':
        this.out += ch
        return
      case '.':
        this.out += ch
        break
      case '*':
      case '+':
      case '?':
        this.fail(`Dangling meta character '${ch}'`, start)
        break
      case '{':
        this.fail('Illegal repetition', start)
        break
      default:
        this.out += literal(ch.codePointAt(0)!)
    }
    this.quantifier()
  }

  /** A quantifier after an atom: greedy and lazy forms kept, the possessive `+` dropped (see above). */
  private quantifier(): void {
    this.skipComments()
    const start = this.i
    const ch = this.peek()
    if (ch === '*' || ch === '+' || ch === '?') {
      this.i++
      this.out += ch
    } else if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))
      if (!m) this.fail('Illegal repetition', start)
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
      if (min > 2147483647 || (max !== Infinity && max > 2147483647)) this.fail('Illegal repetition range', start)
      if (max < min) this.fail('Illegal repetition range', start)
      this.i += m[0].length
      this.out += m[0]
    } else return
    const mode = this.peek()
    if (mode === '?') {
      this.i++
      this.out += '?'
    } else if (mode === '+') this.i++
    this.skipComments()
    const again = this.peek()
    if (again === '*' || again === '+' || again === '?' || (again === '{' && /^\{\d/.test(this.src.slice(this.i)))) {
      this.fail(`Dangling meta character '${again}'`)
    }
  }

  private openGroup(start: number): void {
    const frame: OpenGroup = { extraCloses: 0, flagsBefore: { ...this.flags } }
    if (this.peek() !== '?') {
      this.capturingGroups++
      this.groups.push(frame)
      this.out += '('
      return
    }
    this.i++
    const kind = this.peek()
    if (kind === ':' || kind === '=' || kind === '!') {
      this.i++
      this.out += `(?${kind}`
    } else if (kind === '>') {
      this.i++
      this.out += '(?:'
    } else if (kind === '<') {
      this.i++
      const after = this.peek()
      if (after === '=' || after === '!') {
        this.i++
        this.out += `(?<${after}`
      } else {
        const m = /^([a-zA-Z][a-zA-Z0-9]*)>/.exec(this.src.slice(this.i))
        if (!m) this.fail('Named capturing group is missing trailing \'>\' or has a name that is not a letter followed by letters or digits', start)
        if (this.names.has(m[1])) this.fail(`Named capturing group <${m[1]}> is already defined`, start)
        this.names.add(m[1])
        this.capturingGroups++
        this.i += m[0].length
        this.out += `(?<${m[1]}>`
      }
    } else {
      this.inlineFlags(start, frame)
      return
    }
    this.groups.push(frame)
  }

  /** `(?idmsuxU-idmsuxU)` for the rest of the enclosing group, or `(?…:X)` for X only. */
  private inlineFlags(start: number, frame: OpenGroup): void {
    const on: string[] = []
    const off: string[] = []
    let target = on
    for (;;) {
      const ch = this.peek()
      if (ch === undefined) this.fail('Unknown inline modifier', start)
      this.i++
      if (ch === '-' && target === on) target = off
      else if (JAVA_FLAG_LETTERS.has(ch)) target.push(ch)
      else if (ch === ')' || ch === ':') {
        const next: InlineFlags = { ...this.flags }
        for (const f of ['i', 'm', 's', 'x'] as const) {
          if (on.includes(f)) next[f] = true
          if (off.includes(f)) next[f] = false
        }
        const add = (['i', 'm', 's'] as const).filter((f) => next[f] && !this.flags[f]).join('')
        const remove = (['i', 'm', 's'] as const).filter((f) => !next[f] && this.flags[f]).join('')
        const modifier = add || remove ? `(?${add}${remove ? `-${remove}` : ''}:` : '(?:'
        if (ch === ':') {
          this.groups.push(frame)
          this.out += modifier
        } else if (add || remove) {
          // the flags hold until the enclosing group closes, where the extra group closes too
          this.groups[this.groups.length - 1].extraCloses++
          this.out += modifier
        }
        this.flags = next
        return
      } else this.fail('Unknown inline modifier', this.i - 1)
    }
  }

  private closeGroup(start: number): void {
    if (this.groups.length === 1) this.fail('Unmatched closing \')\'', start)
    const frame = this.groups.pop()!
    this.out += ')'.repeat(frame.extraCloses) + ')'
    this.flags = frame.flagsBefore
  }

  /** After a backslash. `inClass`: the ECMAScript text must be valid inside `[…]`. */
  private escape(inClass: boolean): string {
    const start = this.i - 1
    const ch = this.next()
    if (ch >= '1' && ch <= '9') {
      if (inClass) this.fail('Illegal/unsupported escape sequence', start)
      // Java reads more digits while they still name an existing group
      let n = Number(ch)
      while (/[0-9]/.test(this.peek() ?? '') && n * 10 + Number(this.peek()) <= this.capturingGroups) n = n * 10 + Number(this.next())
      if (n > this.capturingGroups) this.fail(`Back reference \\${n} refers to a group that is not defined before it (never matches in Java; refused)`, start)
      return `(?:\\${n})`
    }
    switch (ch) {
      case '0': {
        const m = /^([0-3][0-7]{2}|[0-7]{1,2})/.exec(this.src.slice(this.i))
        if (!m) this.fail('Illegal octal escape sequence', start)
        this.i += m[1].length
        return literal(parseInt(m[1], 8), inClass)
      }
      case 'x': {
        const braced = /^\{([0-9a-fA-F]+)\}/.exec(this.src.slice(this.i))
        if (braced) {
          const cp = parseInt(braced[1], 16)
          if (cp > 0x10ffff) this.fail('Hexadecimal codepoint is too big', start)
          this.i += braced[0].length
          return literal(cp, inClass)
        }
        const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i))
        if (!m) this.fail('Illegal hexadecimal escape sequence', start)
        this.i += 2
        return literal(parseInt(m[0], 16), inClass)
      }
      case 'u': {
        const m = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i))
        if (!m) this.fail('Illegal Unicode escape sequence', start)
        this.i += 4
        return literal(parseInt(m[0], 16), inClass)
      }
      case 't': return '\\t'
      case 'n': return '\\n'
      case 'r': return '\\r'
      case 'f': return '\\f'
      case 'a': return '\\x07'
      case 'e': return '\\x1B'
      case 'c': {
        const c = this.peek()
        if (c === undefined) this.fail('Illegal control escape sequence', start)
        this.i += c.length
        return literal(c.codePointAt(0)! ^ 64, inClass)
      }
      case 'd': case 'D': case 'w': case 'W':
        return `\\${ch}`
      case 's': case 'h': case 'v':
        return inClass ? CLASS_BODIES[ch] : `[${CLASS_BODIES[ch]}]`
      case 'S': case 'H': case 'V':
        if (inClass) {
          if (ch === 'S') return '\\S'
          this.fail(`\\${ch} inside a character class is not supported`, start)
        }
        return `[^${CLASS_BODIES[ch.toLowerCase()]}]`
      case 'R':
        if (inClass) this.fail('Illegal/unsupported escape sequence', start)
        return '(?:\\r\\n|[\\n-\\r\\x85\\u2028\\u2029])'
      case 'b':
        if (inClass) this.fail('Illegal/unsupported escape sequence', start)
        if (this.peek() === '{') this.fail('\\b{g} (grapheme boundary) is not supported', start)
        return '\\b'
      case 'B':
        if (inClass) this.fail('Illegal/unsupported escape sequence', start)
        return '\\B'
      case 'A': case 'z': case 'Z': case 'G':
        if (inClass) this.fail('Illegal/unsupported escape sequence', start)
        // zero-width; \G (end of the previous match) is treated as always true
        return ch === 'A' ? '(?<![\\s\\S])' : ch === 'z' ? '(?![\\s\\S])' : ch === 'Z' ? '(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?(?![\\s\\S]))' : '(?:)'
      case 'Q': {
        const end = this.src.indexOf('\\E', this.i)
        const quoted = this.src.slice(this.i, end === -1 ? undefined : end)
        this.i = end === -1 ? this.src.length : end + 2
        return [...quoted].map((c) => literal(c.codePointAt(0)!, inClass)).join('')
      }
      case 'k': {
        if (inClass) this.fail('Illegal/unsupported escape sequence', start)
        const m = /^<([a-zA-Z][a-zA-Z0-9]*)>/.exec(this.src.slice(this.i))
        if (!m) this.fail('\\k is not followed by \'<\' for named capturing group', start)
        if (!this.names.has(m[1])) this.fail(`Named capturing group <${m[1]}> does not exist`, start)
        this.i += m[0].length
        return `(?:\\k<${m[1]}>)`
      }
      case 'p': case 'P':
        return this.property(ch === 'P', inClass, start)
      case 'X':
        this.fail('\\X (grapheme cluster) is not supported', start)
        break
      case 'N':
        this.fail('\\N{name} (named character) is not supported', start)
        break
    }
    if (/[a-zA-Z]/.test(ch)) this.fail('Illegal/unsupported escape sequence', start)
    return literal(ch.codePointAt(0)!, inClass)
  }

  /** \p{…} and \P{…}: general categories, scripts, binary properties and the POSIX classes; no blocks. */
  private property(negated: boolean, inClass: boolean, start: number): string {
    let name: string
    const braced = /^\{([^}]*)\}/.exec(this.src.slice(this.i))
    if (braced) {
      name = braced[1]
      this.i += braced[0].length
    } else {
      const c = this.peek()
      if (c === undefined || !/[A-Za-z]/.test(c)) this.fail('Illegal character property', start)
      name = c
      this.i++
    }
    const posix = CLASS_BODIES[name]
    if (posix && name.length > 1) {
      if (!negated) return inClass ? posix : `[${posix}]`
      if (inClass) this.fail(`\\P{${name}} inside a character class is not supported`, start)
      return `[^${posix}]`
    }
    const letter = negated ? 'P' : 'p'
    const eq = /^(\w+)=(\w+)$/.exec(name)
    let property: string
    if (eq) {
      const key = eq[1].toLowerCase()
      if (key === 'block' || key === 'blk') this.fail(`Unicode blocks (${name}) are not supported`, start)
      if (key === 'script' || key === 'sc') property = `Script=${eq[2]}`
      else if (key === 'general_category' || key === 'gc') property = eq[2]
      else this.fail(`Unknown character property name {${name}}`, start)
    } else if (name.startsWith('In')) {
      this.fail(`Unicode blocks (${name}) are not supported`, start)
    } else if (name.startsWith('java')) {
      property = PROPERTY_ALIASES[name] ?? this.fail(`Unsupported character property {${name}}`, start)
    } else if (name.startsWith('Is')) {
      const bare = name.slice(2)
      property = PROPERTY_ALIASES[bare] ?? (/^[A-Z][a-z]?$/.test(bare) ? bare : `Script=${bare}`)
    } else property = name
    const escape = `\\${letter}{${property}}`
    if (!isKnownProperty(escape)) this.fail(`Unknown character property name {${name}}`, start)
    return escape
  }

  /** `[…]`: characters, ranges, escapes and properties. Nested classes and `&&` are refused. */
  private characterClass(start: number): string {
    let negated = false
    if (this.peek() === '^') {
      negated = true
      this.i++
    }
    const parts: string[] = []
    let first = true
    for (;;) {
      this.skipComments()
      const at = this.i
      const ch = this.peek()
      if (ch === undefined) this.fail('Unclosed character class', this.src.length - 1)
      if (ch === ']' && !first) {
        this.i++
        break
      }
      first = false
      if (ch === '[') this.fail('Nested character classes (class union) are not supported', at)
      if (ch === '&' && this.peek(1) === '&') this.fail('Character class intersection (&&) is not supported', at)
      this.i += ch.length
      if (ch === '\\') {
        parts.push(this.escape(true))
      } else if (ch === '-' && parts.length > 0 && this.peek() !== ']' && this.peek() !== undefined) {
        // a range: both ends must be single characters (ECMAScript checks the order)
        const before = parts[parts.length - 1]
        const from = singleChar(before)
        this.skipComments()
        const toStart = this.i
        const t = this.next()
        const to = t === '\\' ? this.escape(true) : t === '[' ? this.fail('Nested character classes (class union) are not supported', toStart) : literal(t.codePointAt(0)!, true)
        if (from === undefined || singleChar(to) === undefined) this.fail('Illegal character range', at)
        if (singleChar(to)! < from) this.fail('Illegal character range', at)
        parts[parts.length - 1] = `${before}-${to}`
      } else {
        parts.push(literal(ch.codePointAt(0)!, true))
      }
    }
    if (parts.length === 0) this.fail('Unclosed character class', start)
    return `[${negated ? '^' : ''}${parts.join('')}]`
  }
}
