/**
 * The formula editor (CodeMirror 6): while typing, the formula is checked by the service (gates 1
 * and 2, `POST /api/views/{uuid}/formula-check`) through CodeMirror's linter, which marks the
 * refusal at its position; the values of the first rows come back with a successful check.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import { api, ApiFailure, message } from '../lib/api.ts';
import { markFor } from '../lib/formula-marks.ts';

export interface FormulaCheck {
  readonly formula: string;
  readonly type: string;
  readonly preview: readonly { readonly id: unknown; readonly value: unknown }[];
}

export type CheckOutcome = { readonly ok: true; readonly check: FormulaCheck } | { readonly ok: false; readonly message: string; readonly from: number; readonly to: number } | null;

interface FormulaEditorProps {
  readonly id: string;
  readonly label: string;
  readonly viewUuid: string;
  readonly initial?: string;
  readonly describedBy?: string;
  readonly onChange: (text: string) => void;
  readonly onChecked: (outcome: CheckOutcome) => void;
}

async function check(viewUuid: string, text: string): Promise<{ diagnostics: Diagnostic[]; outcome: CheckOutcome }> {
  if (text.trim() === '') return { diagnostics: [], outcome: null };
  try {
    const answer = await api<FormulaCheck>('POST', `/api/views/${encodeURIComponent(viewUuid)}/formula-check`, { body: { formula: text, previewRows: 5 } });
    return { diagnostics: [], outcome: { ok: true, check: answer.data } };
  } catch (error) {
    const reason = error instanceof ApiFailure ? (error.details as { reason?: string } | undefined)?.reason : undefined;
    const mark = markFor(text, { message: message(error), position: error instanceof ApiFailure ? error.position() : undefined, ...(reason ? { reason } : {}) });
    return { diagnostics: [{ from: mark.from, to: mark.to, severity: 'error', message: mark.message }], outcome: { ok: false, ...mark } };
  }
}

export function FormulaEditor({ id, label, viewUuid, initial = '', describedBy, onChange, onChecked }: FormulaEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onChecked });
  callbacks.current = { onChange, onChecked };
  useEffect(() => {
    const formulaLinter = linter(
      async (view) => {
        const { diagnostics, outcome } = await check(viewUuid, view.state.doc.toString());
        callbacks.current.onChecked(outcome);
        return diagnostics;
      },
      { delay: 300 },
    );
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          placeholder('amount * quantity'),
          formulaLinter,
          lintGutter(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ id, 'aria-label': label, 'aria-multiline': 'false', ...(describedBy ? { 'aria-describedby': describedBy } : {}) }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.destroy();
  }, [viewUuid]);
  return <div class="formula-editor" ref={host} />;
}
