/** A pattern java.util.regex.Pattern would refuse (or a Java construct outside the supported subset). */
export class JavaRegexError extends Error {
  constructor(message: string, readonly index: number) {
    super(message)
  }
}
