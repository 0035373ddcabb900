// Error response templates (vendor settings/update-json-error-template and -xml-error-template): `#NAME#`
// placeholders are replaced at runtime, so a template is checked with each placeholder replaced by a value that
// fits anywhere (a number inside JSON, text inside XML). The page's own example puts #FAULTSTATUSCODE# unquoted.

export const TEMPLATE_VARIABLES = ['CORRELATIONID', 'FAULTCODE', 'FAULTMESSAGE', 'FAULTSTATUSCODE', 'RESPONSEFROMAPI'] as const
const PLACEHOLDER = /#([A-Z_]+)#/g

function unknownPlaceholder(template: string): string | null {
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1]!)) return `uses the unknown variable #${m[1]}#; the variables are ${TEMPLATE_VARIABLES.map((v) => `#${v}#`).join(', ')}`
  }
  return null
}

/** null when the template is JSON once its placeholders are filled in, else the problem. */
export function checkJsonTemplate(template: string): string | null {
  const unknown = unknownPlaceholder(template)
  if (unknown) return unknown
  try {
    JSON.parse(template.replace(PLACEHOLDER, '0'))
    return null
  } catch (err) {
    return `is not valid JSON: ${(err as Error).message}`
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/

/** null when the template is well-formed XML (one root, balanced tags, quoted attributes), else the problem. */
export function checkXmlTemplate(template: string): string | null {
  const unknown = unknownPlaceholder(template)
  if (unknown) return unknown
  const xml = template.replace(PLACEHOLDER, 'x').trim()
  const stack: string[] = []
  let roots = 0
  let i = 0
  while (i < xml.length) {
    const lt = xml.indexOf('<', i)
    const textPart = lt < 0 ? xml.slice(i) : xml.slice(i, lt)
    if (textPart.trim() && !stack.length) return 'is not valid XML: text outside the root element'
    if (/&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.test(textPart)) return "is not valid XML: '&' must start an entity such as &amp;"
    if (lt < 0) break
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt)
      if (end < 0) return 'is not valid XML: unclosed processing instruction'
      i = end + 2
      continue
    }
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt)
      if (end < 0) return 'is not valid XML: unclosed comment'
      i = end + 3
      continue
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt)
      if (end < 0 || !stack.length) return 'is not valid XML: misplaced or unclosed CDATA section'
      i = end + 3
      continue
    }
    const gt = xml.indexOf('>', lt)
    if (gt < 0) return 'is not valid XML: unclosed tag'
    const tag = xml.slice(lt + 1, gt)
    i = gt + 1
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim()
      const open = stack.pop()
      if (open !== name) return `is not valid XML: </${name}> closes ${open ? `<${open}>` : 'nothing'}`
      continue
    }
    const selfClosing = tag.endsWith('/')
    const body = selfClosing ? tag.slice(0, -1) : tag
    const name = body.split(/\s+/, 1)[0] ?? ''
    if (!NAME.test(name)) return `is not valid XML: bad element name '<${name}'`
    const attrs = body.slice(name.length).trim()
    if (attrs && !/^([A-Za-z_][A-Za-z0-9_.:-]*\s*=\s*("[^"<]*"|'[^'<]*')\s*)+$/.test(attrs)) return `is not valid XML: attributes of <${name}> must be name="value"`
    if (!stack.length) {
      roots += 1
      if (roots > 1) return 'is not valid XML: more than one root element'
    }
    if (!selfClosing) stack.push(name)
  }
  if (stack.length) return `is not valid XML: <${stack[stack.length - 1]}> is not closed`
  if (!roots) return 'is not valid XML: no root element'
  return null
}
