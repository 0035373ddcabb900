// DLP rule checks on save (issue 4, presets): Java regular expression translation + parse, and the anchor
// check (automaton × KMP product) for the built-in pack and for the largest accepted inputs. CPU only.
import { occursInEveryMatch } from '../src/modules/presets/anchors.js'
import { BUILTIN_PRESETS, builtinRow } from '../src/modules/presets/builtins.js'
import { compileJavaRegex } from '../src/modules/presets/java-regex.js'
import { medianOf, ms } from './measure.js'



export async function benchPresets(): Promise<void> {
  console.log('\n== AI presets: DLP rule validation (CPU) ==')
  console.log(`built-in pack (${BUILTIN_PRESETS.length} presets, compile + anchors): ${ms(await medianOf(50, () => BUILTIN_PRESETS.forEach(builtinRow)))}`)
  const long = 'x'.repeat(3800) + '[A-Z]{16}(?:-[0-9]{4}){3}'
  const compiled = compileJavaRegex(long)
  console.log(`4,096-character rule, compile only:                ${ms(await medianOf(20, () => compileJavaRegex(long)))}`)
  console.log(`same rule, one 256-character anchor:                ${ms(await medianOf(20, () => occursInEveryMatch(compiled.ast, 'x'.repeat(256))))}`)
  const nested = compileJavaRegex('(?:(?:[a-z]{2,40}[ .-]?){1,20}@){1,5}[a-z]{2,}')
  console.log(`nested counted repetitions, 32 anchors of 1 char:   ${ms(await medianOf(20, () => { for (let i = 0; i < 32; i++) occursInEveryMatch(nested.ast, '@') }))}`)
  // an anchor that holds forces the whole product to be explored (no early exit)
  const worst = compileJavaRegex('(?:(?:[a-z0-9]{1,300}[ .-]?){1,300}SECRET-TOKEN){1,300}')
  console.log(`nested repetitions up to 300, anchor holds (12 ch): ${ms(await medianOf(5, () => { try { occursInEveryMatch(worst.ast, 'SECRET-TOKEN') } catch { /* too complex */ } }))}`)
  const alternatives = compileJavaRegex(Array.from({ length: 200 }, (_, i) => `KEY${i}-[0-9]{8}`).join('|'))
  console.log(`200 alternatives, anchor 'KEY':                     ${ms(await medianOf(20, () => occursInEveryMatch(alternatives.ast, 'KEY')))}`)
}
