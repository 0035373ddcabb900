import { expect } from 'vitest'

export interface LegacyAnswer { status: number; body: any }

/** What a refusal must leave as it was: the stored state (compared as JSON) and the number of pushes sent. */
export interface Untouched {
  state: () => Promise<unknown>
  pushes: () => number
}

/**
 * A legacy refusal (spec §7.1): the status, `FAILURE` with the message (a string is the whole message), and the
 * state and the pushes as they were before the call. The call is made here, after the state is read, so a write
 * that the refusal let through shows.
 */
export async function expectLegacyRefusal(
  call: () => Promise<LegacyAnswer>,
  message: RegExp | string,
  untouched: Untouched,
  status = 400,
): Promise<LegacyAnswer> {
  const [before, pushesBefore] = [JSON.stringify(await untouched.state()), untouched.pushes()]
  const res = await call()
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body).toMatchObject({ status: 'FAILURE' })
  if (typeof message === 'string') expect(res.body.resultMessage).toBe(message)
  else expect(res.body.resultMessage).toMatch(message)
  expect(JSON.stringify(await untouched.state())).toBe(before)
  expect(untouched.pushes()).toBe(pushesBefore)
  return res
}
