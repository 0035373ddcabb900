import { describe, expect, it } from 'vitest'
import { compileJavaRegex, JavaRegexError } from '../../src/modules/presets/java-regex.js'
import { occursInEveryMatch } from '../../src/modules/presets/anchors.js'
import { BUILTIN_PRESETS, builtinRow } from '../../src/modules/presets/builtins.js'

const refusal = (pattern: string) => {
  try {
    compileJavaRegex(pattern)
  } catch (err) {
    expect(err).toBeInstanceOf(JavaRegexError)
    return (err as Error).message
  }
  throw new Error(`accepted: ${pattern}`)
}

describe('Java regular expressions', () => {
  const accepted: [string, string][] = [
    ['\\b(?:\\d[ -]*?){13,16}\\b', '\\b(?:\\d[ \\-]*?){13,16}\\b'],
    ['(?i)iban[0-9]{2}', '(?i:iban[0-9]{2})'],
    ['a(?i)b|c', 'a(?i:b|c)'],
    ['(?i:abc)def', '(?i:abc)def'],
    ['(?s-i).', '(?s:.)'],
    ['(?x) a b # comment\n c', 'abc'],
    ['a*+b++c?+d{2,3}+', 'a*b+c?d{2,3}'],
    ['(?>ab)', '(?:ab)'],
    ['\\Qa.b*\\E+', 'a\\.b\\*+'],
    ['\\p{Lu}\\p{IsLatin}\\p{Alpha}\\pL', '\\p{Lu}\\p{Script=Latin}[a-zA-Z]\\p{L}'],
    ['[\\p{Digit}x]', '[0-9x]'],
    ['\\x{1F600}\\x41\\u0042\\0103', '\\u{1F600}ABC'],
    ['[]a]', '[\\]a]'],
    ['(?<word>x)\\k<word>', '(?<word>x)(?:\\k<word>)'],
    ['(a)\\1', '(a)(?:\\1)'],
    ['\\Aabc\\z', '(?<![\\s\\S])abc(?![\\s\\S])'],
    ['a}]', 'a\\}\\]'],
    ['(?<=ab{1,3})c', '(?<=ab{1,3})c'],
  ]
  it.each(accepted)('accepts %s', (pattern, translated) => {
    expect(compileJavaRegex(pattern).source).toBe(translated)
  })

  const refused: [string, string][] = [
    ['[a-z&&[^e]]', 'Character class intersection (&&) is not supported'],
    ['[a-d[m-p]]', 'Nested character classes (class union) are not supported'],
    ['a{2', 'Illegal repetition'],
    ['{1}', 'Illegal repetition'],
    ['a{3,2}', 'Illegal repetition range'],
    ['*a', "Dangling meta character '*'"],
    ['a**', "Dangling meta character '*'"],
    ['(?<=a+)b', 'Look-behind group does not have an obvious maximum length'],
    ['\\p{InGreek}', 'Unicode blocks (InGreek) are not supported'],
    ['(a)\\2', 'Back reference \\2 refers to a group that is not defined before it'],
    ['(?<n_1>x)', 'Named capturing group is missing trailing'],
    ['(?<n>x)(?<n>y)', 'Named capturing group <n> is already defined'],
    ['\\k<nope>', 'Named capturing group <nope> does not exist'],
    ['\\y', 'Illegal/unsupported escape sequence'],
    ['[a-\\d]', 'Illegal character range'],
    ['[z-a]', 'Illegal character range'],
    ['(', 'Unclosed group'],
    [')', "Unmatched closing ')'"],
    ['[abc', 'Unclosed character class'],
    ['(?q)', 'Unknown inline modifier'],
    ['\\X', '\\X (grapheme cluster) is not supported'],
    ['\\08', 'Illegal octal escape sequence'],
    ['\\xZZ', 'Illegal hexadecimal escape sequence'],
    ['\\p{Nope}', 'Unknown character property name {Nope}'],
    ['\\p{IsKlingon}', 'Unknown character property name {IsKlingon}'],
  ]
  it.each(refused)('refuses %s', (pattern, message) => {
    expect(refusal(pattern)).toContain(message)
  })

  it('refuses patterns longer than 4096 characters', () => {
    expect(refusal('a'.repeat(4097))).toContain('longer than 4096')
  })
})

describe('literal anchors on the parsed pattern', () => {
  const cases: [string, string, boolean][] = [
    ['AKIA[0-9A-Z]{16}', 'AKIA', true],
    ['AKIA[0-9A-Z]{16}', 'AKIAX', false],
    ['(?:AKIA|ASIA)[0-9A-Z]{16}', 'AKIA', false],
    ['(?:AKIA|ASIA)[0-9A-Z]{16}', 'IA', true],
    ['(?i)iban', 'iban', false],
    ['iban|IBAN', 'b', false],
    ['ab+c', 'abc', false],
    ['ab+c', 'bc', true],
    ['ab+c', 'ab', true],
    ['(?:foo|bar)baz', 'obaz', false],
    ['(?:foo|fbo)baz', 'obaz', true],
    ['x{3}', 'xxx', true],
    ['x{3}', 'xxxx', false],
    ['x{500}', 'xxxx', true],
    ['x{2,}y', 'xxy', true],
    ['a(b)?c\\1', 'ac', false],
    ['a(b)?c\\1', 'c', true],
    ['[ab]{2}', 'a', false],
    ['a[.]b', 'a.b', true],
    ['a.b', 'a.b', false],
    ['(?=abc)\\w+', 'abc', false],
    ['aaab', 'aab', true],
    ['\\Qsk-\\E[a-z]+', 'sk-', true],
    ['-----BEGIN (?:RSA |EC )?PRIVATE KEY-----', 'PRIVATE KEY-----', true],
    ['-----BEGIN (?:RSA |EC )?PRIVATE KEY-----', 'BEGIN RSA', false],
    ['[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}', '@', true],
    ['[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}', '@.', false],
  ]
  it.each(cases)('%s contains %s in every match: %s', (pattern, anchor, expected) => {
    expect(occursInEveryMatch(compileJavaRegex(pattern).ast, anchor)).toBe(expected)
  })
})

describe('built-in rule pack', () => {
  it.each(BUILTIN_PRESETS.map((b) => [b.family, b.name, b] as const))('%s %s compiles and its anchors hold', (_f, _n, b) => {
    expect(() => builtinRow(b)).not.toThrow()
  })
})
