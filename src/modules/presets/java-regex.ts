import { RegExpParser, RegExpSyntaxError, type AST } from '@eslint-community/regexpp'
import { JavaRegexError } from './java-regex-error.js'
import { Translator } from './java-regex-translator.js'

export { JavaRegexError }

/**
 * Java regular expressions (java.util.regex.Pattern) checked without a JVM.
 *
 * A lexer that knows Java's grammar rewrites the pattern into the equivalent ECMAScript pattern (unicode
 * mode), refusing with a message every construct Java refuses and every Java construct we do not
 * support; the result is parsed by @eslint-community/regexpp, whose AST the anchor check walks. The
 * supported subset is listed in docs/presets.md. Constructs that only restrict backtracking (possessive
 * quantifiers, atomic groups) become their plain forms: they match a subset of what the plain forms
 * match, so every conclusion drawn on the translation ("every match contains X") holds for Java too.
 */
export interface CompiledJavaRegex {
  /** the ECMAScript translation (flags `u`) */
  source: string
  ast: AST.Pattern
}

/** Longest accepted pattern; DLP rules are scanned on every prompt. */
export const MAX_JAVA_REGEX_LENGTH = 4096

const parser = new RegExpParser({ ecmaVersion: 2025 })

/** Why regexpp refused, without its echo of the translated pattern. */
const reason = (err: RegExpSyntaxError) => err.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')

/**
 * Compiles a Java regular expression as java.util.regex.Pattern would, within the supported subset:
 * returns the ECMAScript translation and its AST, or throws JavaRegexError with Java's wording.
 */
export function compileJavaRegex(pattern: string): CompiledJavaRegex {
  if (pattern.length > MAX_JAVA_REGEX_LENGTH) throw new JavaRegexError(`Pattern is longer than ${MAX_JAVA_REGEX_LENGTH} characters`, MAX_JAVA_REGEX_LENGTH)
  const source = new Translator(pattern).translate()
  let ast: AST.Pattern
  try {
    ast = parser.parsePattern(source, 0, source.length, { unicode: true })
  } catch (err) {
    if (err instanceof RegExpSyntaxError) throw new JavaRegexError(reason(err), -1)
    throw err
  }
  checkLookbehinds(ast)
  return { source, ast }
}

/** Java needs an obvious maximum length inside a look-behind: no unbounded quantifier, no back reference. */
function checkLookbehinds(pattern: AST.Pattern): void {
  const walk = (node: AST.Node, inLookbehind: boolean): void => {
    switch (node.type) {
      case 'Pattern':
      case 'Group':
      case 'CapturingGroup':
        for (const alt of node.alternatives) walk(alt, inLookbehind)
        return
      case 'Assertion':
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') {
          for (const alt of node.alternatives) walk(alt, inLookbehind || node.kind === 'lookbehind')
        }
        return
      case 'Alternative':
        for (const el of node.elements) walk(el, inLookbehind)
        return
      case 'Quantifier':
        if (inLookbehind && node.max === Infinity) throw new JavaRegexError('Look-behind group does not have an obvious maximum length', -1)
        walk(node.element, inLookbehind)
        return
      case 'Backreference':
        if (inLookbehind) throw new JavaRegexError('Look-behind group does not have an obvious maximum length', -1)
        return
      default:
    }
  }
  walk(pattern, false)
}
