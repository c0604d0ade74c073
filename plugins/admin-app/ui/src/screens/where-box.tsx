/**
 * The `where` box: a boolean formula sent as the list's `where` parameter. A refusal
 * (INVALID_FORMULA) carries its position; the box puts the caret there and the text is shown again
 * with the offending character marked.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FormulaPosition } from '../lib/api.ts';
import { described, Field } from '../components/field.tsx';
import { withPosition } from '../lib/formula-marks.ts';

export interface WhereError {
  readonly message: string;
  readonly position?: FormulaPosition | undefined;
  readonly text: string;
}

function Marked({ error }: { readonly error: WhereError }) {
  const offset = Math.min(error.position?.offset ?? 0, error.text.length);
  const before = error.text.slice(0, offset);
  const at = error.text.slice(offset, offset + 1) || ' ';
  return (
    <p class="where-marked" aria-hidden="true">
      {before}
      <mark>{at}</mark>
      {error.text.slice(offset + 1)}
    </p>
  );
}

export function WhereBox({ value, error, example, onApply }: { readonly value: string; readonly error: WhereError | undefined; readonly example: string; readonly onApply: (text: string) => void }) {
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!error?.position || !input.current) return;
    input.current.focus();
    input.current.setSelectionRange(error.position.offset, error.position.offset + 1);
  }, [error]);
  const problem = error ? withPosition(error.message, error.position) : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onApply(text);
      }}
      aria-label="Where formula"
    >
      <Field id="where" label="where (a boolean formula)" error={problem}>
        <input ref={input} {...described('where', problem)} size={50} placeholder={example} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </Field>
      {error && <Marked error={error} />}
      <button type="submit">Apply where</button>
      {value && (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setText('');
            onApply('');
          }}
        >
          Clear where
        </button>
      )}
    </form>
  );
}
