import { useState } from 'preact/hooks'
import { GqlError } from '../client'
import { ConsoleChangePasswordDocument } from '../gql/graphql'
import { ErrorBox, Field, useMutation } from '../ui'

export function ChangePasswordPage({ username, onChanged }: { username: string; onChanged: () => void }) {
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [mismatch, setMismatch] = useState<GqlError | null>(null)
  const [done, setDone] = useState(false)
  const change = useMutation(ConsoleChangePasswordDocument)
  return (
    <>
      <h1>Change password</h1>
      <form class="card" aria-label="Change password" onSubmit={async (e) => {
        e.preventDefault()
        setDone(false)
        if (password !== repeat) {
          setMismatch(new GqlError('The two passwords differ', undefined, 'password'))
          return
        }
        setMismatch(null)
        if (await change.run({ username, password })) {
          setPassword('')
          setRepeat('')
          setDone(true)
          onChanged()
        }
      }}>
        <Field label="New password" name="new-password" type="password" required value={password} onInput={setPassword} autoComplete="new-password" />
        <Field label="Repeat the new password" name="repeat-password" type="password" required value={repeat} onInput={setRepeat} autoComplete="new-password" />
        <button type="submit" disabled={change.busy}>Change password</button>
        <ErrorBox error={mismatch ?? change.error} />
        {done ? <p role="status">Password changed.</p> : null}
      </form>
    </>
  )
}
