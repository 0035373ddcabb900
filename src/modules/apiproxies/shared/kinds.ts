/** "an AI proxy", "a REST proxy": the kind with its article, for messages. */
export const kindWithArticle = (kind: string) => `${['AI', 'A2A', 'MCP'].includes(kind) ? 'an' : 'a'} ${kind}`
