'use client';

import { useMemo, useRef, useState } from 'react';
import { useWarnBeforeUnload } from '../../../_components/warn-before-unload';
import { locateJsonPath, readJson } from '../_lib/json-source';
import { CreateVersion } from './create-version';
import { DraftEditor, type SavedDraft } from './draft-editor';
import { PreviewPanel } from './preview-panel';
import { revealInEditor } from './reveal-in-editor';

/** Why the saved draft cannot become a version yet, in words; null when it can. */
function whyNoVersionYet(input: { canPublish: boolean; text: string; savedText: string | null; lastSave: SavedDraft | null }): string | null {
  if (!input.canPublish) return 'Creating versions needs the books:publish permission. Ask a workspace admin if you need it.';
  if (input.savedText === null) return 'Save the draft first: versions are made from the saved draft.';
  if (input.savedText !== input.text) return 'Save your changes first: versions are made from the saved draft.';
  if (input.lastSave && !input.lastSave.result.valid) return 'Fix the problems listed above and save again first.';
  return null;
}

/** The draft being edited, its preview and turning it into a version: they share the editor's text. */
export function BookWorkbench({
  bookId,
  initialText,
  initialTextIsSavedDraft,
  sourceNote,
  canEdit,
  canPublish,
}: {
  bookId: string;
  initialText: string;
  initialTextIsSavedDraft: boolean;
  sourceNote: string;
  canEdit: boolean;
  canPublish: boolean;
}) {
  const [text, setText] = useState(initialText);
  const [savedText, setSavedText] = useState(initialTextIsSavedDraft ? initialText : null);
  const [lastSave, setLastSave] = useState<SavedDraft | null>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const parsed = useMemo(() => readJson(text), [text]);
  // Only edits ask before the tab closes: an untouched editor has nothing to lose.
  useWarnBeforeUnload(text !== (savedText ?? initialText));

  const revealPath = (path: string) => {
    if (parsed.ok) revealInEditor(editorRef.current, locateJsonPath(parsed.root, path));
  };
  const revealOffset = (offset: number) => revealInEditor(editorRef.current, { start: offset, end: Math.min(offset + 1, text.length) });

  return (
    <>
      <DraftEditor
        bookId={bookId}
        text={text}
        parsed={parsed}
        onTextChange={setText}
        editorRef={editorRef}
        sourceNote={sourceNote}
        savedText={savedText}
        lastSave={lastSave}
        onSaved={(saved) => {
          setSavedText(saved.text);
          setLastSave(saved);
        }}
        onRevealPath={revealPath}
        onRevealOffset={revealOffset}
        canEdit={canEdit}
      />
      <CreateVersion
        bookId={bookId}
        blockedBecause={whyNoVersionYet({ canPublish, text, savedText, lastSave })}
        artifact={parsed.ok ? parsed.value : null}
        onRevealPath={revealPath}
      />
      <PreviewPanel bookId={bookId} parsed={parsed} onRevealPath={revealPath} />
    </>
  );
}
