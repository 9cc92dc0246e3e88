import { lineAndColumnAt } from '../_lib/json-source';

/** Selects [start, end) in the editor and scrolls it so the selection shows near the top. */
export function revealInEditor(editor: HTMLTextAreaElement | null, range: { start: number; end: number }) {
  if (!editor) return;
  editor.focus({ preventScroll: true });
  editor.setSelectionRange(range.start, range.end);
  const { line } = lineAndColumnAt(editor.value, range.start);
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 20;
  editor.scrollTop = Math.max(0, (line - 3) * lineHeight);
  editor.scrollIntoView({ block: 'nearest' });
}
