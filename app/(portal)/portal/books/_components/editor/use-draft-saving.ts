'use client';

import { dequal } from 'dequal/lite';
import { useState } from 'react';
import { isJsonObject } from '../../_lib/json-source';
import { useSaveDraft } from '../book-queries';

/**
 * Saving the draft, and whether there is anything to save: unsaved means different from the saved
 * draft (or what the editor started from), not edited, so typing a letter and deleting it leaves
 * nothing to save. Edits share what they leave unchanged, so the comparison reads little.
 */
export function useDraftSaving(bookId: string, { initialDraft, hasSavedDraft, draft, jsonBroken }: {
  initialDraft: unknown;
  hasSavedDraft: boolean;
  draft: unknown;
  /** The JSON view holds text that is not JSON: there is no draft to save until it is. */
  jsonBroken: boolean;
}) {
  const [baseline, setBaseline] = useState<unknown>(initialDraft);
  const [savedOnce, setSavedOnce] = useState(hasSavedDraft);
  const [saveNote, setSaveNote] = useState<string | null>(null);
  const mutation = useSaveDraft(bookId);
  const unsaved = jsonBroken || !dequal(draft, baseline);

  const save = () => {
    if (!isJsonObject(draft) || jsonBroken) return;
    const atSave = draft;
    mutation.mutate(atSave, {
      onSuccess: (result) => {
        setBaseline(atSave);
        setSavedOnce(true);
        setSaveNote(result.valid ? 'Draft saved. It has no problems, so it can become a version.' : 'Draft saved as work in progress: the problems listed above stop it from becoming a version.');
      },
    });
  };
  return {
    save,
    unsaved,
    savedOnce,
    saving: mutation.isPending,
    error: mutation.isError ? mutation.error : null,
    /** What the last save said, shown until the draft changes again. */
    note: saveNote && !unsaved ? saveNote : null,
  };
}
