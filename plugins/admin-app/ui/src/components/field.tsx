/** A labelled control with its problem shown under it and announced with it (aria-describedby). */
import type { ComponentChildren } from 'preact';

let counter = 0;
export const uniqueId = (prefix: string): string => `${prefix}-${++counter}`;

interface FieldProps {
  readonly id: string;
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string;
  readonly children: ComponentChildren;
}

export function Field({ id, label, error, hint, children }: FieldProps) {
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && (
        <span class="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** The attributes that tie a control to its Field's hint and error. */
export function described(id: string, error: string | undefined, hint?: boolean) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

export function ErrorNote({ error }: { readonly error: string | undefined }) {
  return error ? (
    <p class="error-note" role="alert">
      {error}
    </p>
  ) : null;
}

export function Notice({ text }: { readonly text: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}
