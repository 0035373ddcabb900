import { useState } from 'preact/hooks'
import { GqlError } from '../client'
import { ConsoleChangePasswordDocument } from '../gql/graphql'
import { ErrorBox, Field, useMutation } from '../ui'

export function ChangePasswordPage({ onChanged }: { onChanged: () => void }) {
  const [current, setCurrent] = useState('')
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
          setMismatch(new GqlError('The two passwords differ', undefined, 'newPassword'))
          return
        }
        setMismatch(null)
        if (await change.run({ currentPassword: current, newPassword: password })) {
          setCurrent('')
          setPassword('')
          setRepeat('')
          setDone(true)
          onChanged()
        }
      }}>
        <Field label="Current password" name="current-password" type="password" required value={current} onInput={setCurrent} autoComplete="current-password" />
        <Field label="New password" name="new-password" type="password" required value={password} onInput={setPassword} autoComplete="new-password" />
        <Field label="Repeat the new password" name="repeat-password" type="password" required value={repeat} onInput={setRepeat} autoComplete="new-password" />
        <button type="submit" disabled={change.busy}>Change password</button>
        <ErrorBox error={mismatch ?? change.error} />
        {done ? <p role="status">Password changed.</p> : null}
      </form>
    </>
  )
}
