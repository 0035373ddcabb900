/**
 * GraphQL may send explicit nulls for absent optional fields. For updates, null means "leave as is"
 * except for the fields listed in keepNull, where null clears the stored value.
 */
export const withoutNulls = <T extends object>(input: T, keepNull: (keyof T)[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== null || keepNull.includes(k as keyof T))) as T
