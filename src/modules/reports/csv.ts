// CSV for the reports (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break).
// Operators open these in a spreadsheet: a cell that would start a formula (= + - @, tab, CR) is prefixed with a
// single quote, so that a name chosen by a tenant cannot run as a formula (OWASP "CSV injection").

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = Array.isArray(value) ? value.join(';') : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvLine = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n'

/** Whether the client asked for CSV: `Accept: text/csv` (alone or preferred in a list). */
export function wantsCsv(accept: string | string[] | undefined): boolean {
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '')
  return value.split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === 'text/csv')
}
