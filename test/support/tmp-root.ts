import fs from 'node:fs'
import os from 'node:os'

/**
 * Where the suite keeps its databases' directories: a memory file system when the machine has one (Linux /dev/shm),
 * else the temporary folder. Each PGlite test database is a copy of a 42 MB, 1,400-file template that is written
 * through and removed after its file; on tmpfs that copying, writing and unlinking costs half the kernel time it
 * costs on disk. TEST_TMPDIR overrides.
 */
export function testTmpRoot(): string {
  if (process.env.TEST_TMPDIR) return process.env.TEST_TMPDIR
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK)
    return '/dev/shm'
  } catch {
    return os.tmpdir()
  }
}
