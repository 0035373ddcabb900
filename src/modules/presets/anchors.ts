import type { AST } from '@eslint-community/regexpp'

/**
 * Does every string the pattern can match contain `anchor`?
 *
 * The pattern's AST becomes a Thompson automaton over characters, run in product with the KMP automaton
 * of the anchor: if the accepting state is reachable while the anchor has not been completed, some match
 * avoids the anchor. The automaton over-approximates where exactness is out of reach (assertions and
 * look-arounds are skipped, a back reference matches any text, long counted repetitions are widened):
 * that can only add matches, so an anchor accepted here is in every real match.
 */
export function occursInEveryMatch(pattern: AST.Pattern, anchor: string): boolean {
  const chars = [...anchor]
  if (chars.length === 0) return true
  const nfa = new Automaton(chars.length + 1)
  const { start, end } = nfa.fragment(pattern, { ignoreCase: false, dotAll: false })
  return !nfa.acceptsAvoiding(start, end, chars)
}

/** Largest automaton built for one check, and most (state, anchor progress) pairs explored; beyond them the pattern is refused as too complex. */
const MAX_STATES = 100_000
const MAX_VISITED = 2_000_000
const TOO_COMPLEX = 'The regular expression is too complex to check literalAnchors'

export class PatternTooComplexError extends Error {}

interface Mode { ignoreCase: boolean; dotAll: boolean }

/** One character test: exact membership for the anchor's characters, and whether anything else passes. */
interface CharTest {
  accepts(ch: string): boolean
  /** true when some character outside `alphabet` is accepted (may over-approximate) */
  acceptsOther(alphabet: ReadonlySet<string>): boolean
}

const ANY: CharTest = { accepts: () => true, acceptsOther: () => true }

const compiled = new Map<string, RegExp>()
function regexFor(raw: string, mode: Mode): RegExp {
  const flags = `u${mode.ignoreCase ? 'i' : ''}${mode.dotAll ? 's' : ''}`
  const key = `${flags}/${raw}`
  let re = compiled.get(key)
  if (!re) {
    re = new RegExp(`^(?:${raw})$`, flags)
    compiled.set(key, re)
  }
  return re
}

/** Characters a class element can stand for, when they are few; undefined when many or unknown. */
function smallMembers(node: AST.CharacterClassElement | AST.Character | AST.CharacterSet, limit: number): number[] | undefined {
  switch (node.type) {
    case 'Character':
      return [node.value]
    case 'CharacterClassRange':
      return node.max.value - node.min.value + 1 <= limit
        ? Array.from({ length: node.max.value - node.min.value + 1 }, (_, k) => node.min.value + k)
        : undefined
    case 'CharacterSet':
      return node.kind === 'digit' && !node.negate ? Array.from({ length: 10 }, (_, k) => 48 + k) : undefined
    default:
      return undefined
  }
}

function charTest(node: AST.Character | AST.CharacterClass | AST.CharacterSet, mode: Mode): CharTest {
  const re = regexFor(node.raw, mode)
  return {
    accepts: (ch) => re.test(ch),
    acceptsOther(alphabet) {
      let members: number[] | undefined = []
      if (node.type === 'CharacterClass') {
        if (node.negate || node.unicodeSets) return true
        for (const el of node.elements) {
          const m = smallMembers(el as AST.CharacterClassElement, alphabet.size + 1)
          if (!m) return true
          members.push(...m)
        }
      } else members = smallMembers(node, alphabet.size + 1)
      if (!members || members.length > alphabet.size * 2 + 2) return true
      // the few candidates and their case variants (what ignoreCase adds)
      for (const cp of members) {
        const ch = String.fromCodePoint(cp)
        for (const variant of new Set([ch, ch.toLowerCase(), ch.toUpperCase()])) {
          if (!alphabet.has(variant) && re.test(variant)) return true
        }
      }
      return false
    },
  }
}

interface Edge { to: number; test: CharTest | null }

class Automaton {
  private readonly edges: Edge[][] = []

  /** `repeatCap`: counted repetitions beyond this are widened (anchor length + 1 suffices). */
  constructor(private readonly repeatCap: number) {}

  private state(): number {
    if (this.edges.length >= MAX_STATES) throw new PatternTooComplexError(TOO_COMPLEX)
    this.edges.push([])
    return this.edges.length - 1
  }

  private link(from: number, to: number, test: CharTest | null = null): void {
    this.edges[from].push({ to, test })
  }

  fragment(node: AST.Node, mode: Mode): { start: number; end: number } {
    const start = this.state()
    const end = this.state()
    switch (node.type) {
      case 'Pattern':
      case 'CapturingGroup':
        this.alternatives(node.alternatives, mode, start, end)
        break
      case 'Group': {
        const inner = node.modifiers
          ? {
              ignoreCase: node.modifiers.add.ignoreCase ? true : node.modifiers.remove?.ignoreCase ? false : mode.ignoreCase,
              dotAll: node.modifiers.add.dotAll ? true : node.modifiers.remove?.dotAll ? false : mode.dotAll,
            }
          : mode
        this.alternatives(node.alternatives, inner, start, end)
        break
      }
      case 'Alternative': {
        let at = start
        for (const el of node.elements) {
          const f = this.fragment(el, mode)
          this.link(at, f.start)
          at = f.end
        }
        this.link(at, end)
        break
      }
      case 'Quantifier':
        this.repeat(node, mode, start, end)
        break
      case 'Character':
      case 'CharacterClass':
      case 'CharacterSet':
        this.link(start, end, charTest(node, mode))
        break
      case 'Backreference': {
        // any text: a loop of any character
        this.link(start, end)
        this.link(end, end, ANY)
        break
      }
      default:
        // assertions and look-arounds consume nothing
        this.link(start, end)
    }
    return { start, end }
  }

  private alternatives(alternatives: AST.Alternative[], mode: Mode, start: number, end: number): void {
    for (const alt of alternatives) {
      const f = this.fragment(alt, mode)
      this.link(start, f.start)
      this.link(f.end, end)
    }
  }

  /** X{min,max}: exact copies up to the cap; beyond it X{min(min,cap)} X*, which matches a superset. */
  private repeat(node: AST.Quantifier, mode: Mode, start: number, end: number): void {
    const widen = node.max === Infinity || node.max > this.repeatCap
    const mandatory = Math.min(node.min, this.repeatCap)
    let at = start
    for (let k = 0; k < mandatory; k++) {
      const f = this.fragment(node.element, mode)
      this.link(at, f.start)
      at = f.end
    }
    if (widen) {
      const f = this.fragment(node.element, mode)
      this.link(at, f.start)
      this.link(f.end, at)
      this.link(at, end)
      return
    }
    for (let k = mandatory; k < node.max; k++) {
      this.link(at, end)
      const f = this.fragment(node.element, mode)
      this.link(at, f.start)
      at = f.end
    }
    this.link(at, end)
  }

  /** Is `end` reachable from `start` along some string that does not contain `anchor`? */
  acceptsAvoiding(start: number, end: number, anchor: string[]): boolean {
    const m = anchor.length
    const fail = kmpFailure(anchor)
    const alphabet = new Set(anchor)
    const step = (k: number, ch: string) => {
      while (k > 0 && anchor[k] !== ch) k = fail[k - 1]
      return anchor[k] === ch ? k + 1 : 0
    }
    const seen = new Set<number>()
    const queue: [number, number][] = []
    const visit = (state: number, k: number) => {
      const key = state * (m + 1) + k
      if (seen.has(key)) return
      if (seen.size >= MAX_VISITED) throw new PatternTooComplexError(TOO_COMPLEX)
      seen.add(key)
      queue.push([state, k])
    }
    visit(start, 0)
    while (queue.length) {
      const [state, k] = queue.pop()!
      if (state === end) return true
      for (const edge of this.edges[state]) {
        if (!edge.test) {
          visit(edge.to, k)
          continue
        }
        for (const ch of alphabet) {
          if (!edge.test.accepts(ch)) continue
          const next = step(k, ch)
          if (next < m) visit(edge.to, next)
        }
        if (edge.test.acceptsOther(alphabet)) visit(edge.to, 0)
      }
    }
    return false
  }
}

function kmpFailure(p: string[]): number[] {
  const fail = new Array<number>(p.length).fill(0)
  for (let i = 1, k = 0; i < p.length; i++) {
    while (k > 0 && p[i] !== p[k]) k = fail[k - 1]
    if (p[i] === p[k]) k++
    fail[i] = k
  }
  return fail
}
