import { isIP } from 'node:net'
import { z } from 'zod'

/** An IPv4/IPv6 address or CIDR range (`10.0.0.0/8`, `2001:db8::/32`), checked with node:net. */
export function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf('/')
  if (slash < 0) return isIP(value) !== 0
  const address = value.slice(0, slash)
  const prefix = value.slice(slash + 1)
  const version = isIP(address)
  if (!version || !/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (version === 4 ? 32 : 128)
}

/** ipList of a credential: allowed client addresses; empty means no restriction. */
export const ipList = z
  .array(z.string().trim().max(64, 'must be at most 64 characters').refine(isIpOrCidr, 'must be an IP address or CIDR range'))
  .max(1000, 'must list at most 1000 entries')
