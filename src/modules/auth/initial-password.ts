import fs from 'node:fs'
import path from 'node:path'

// The first-run admin's password file (RUNTIME.md §3.1): written by first-run.ts, removed by users.ts when that
// admin sets a password of its own. Apart from both, so that neither imports the other.

/** RUNTIME.md §3.1: the user an installation without any user gets, so that it can be signed in to. */
export const FIRST_RUN_ADMIN = 'admin'
export const INITIAL_PASSWORD_FILE = 'initial-admin-password'

export const initialPasswordFile = (dataDir: string) => path.join(dataDir, INITIAL_PASSWORD_FILE)

/** The file has served its purpose once the first-run admin chose a password of its own. */
export function forgetInitialPassword(dataDir: string | undefined, username: string) {
  if (dataDir && username === FIRST_RUN_ADMIN) fs.rmSync(initialPasswordFile(dataDir), { force: true })
}

/** Whether the user is the first-run admin still signing in with the generated password (its file is there). */
export const initialPasswordStands = (dataDir: string | undefined, username: string) =>
  Boolean(dataDir) && username === FIRST_RUN_ADMIN && fs.existsSync(initialPasswordFile(dataDir!))
