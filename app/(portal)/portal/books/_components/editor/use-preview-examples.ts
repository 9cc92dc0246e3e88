'use client';

import { useMemo, useState } from 'react';
import { isJsonObject } from '../../_lib/json-source';
import type { Example } from '../../_lib/live-check';
import { previewOfferings } from '../../_lib/preview-questions';
import { firstExample } from './live-preview';

/**
 * The live preview's examples: the questions of the draft being edited, the examples a person
 * set up (one to start with), and which one the toolbar shows. An example whose offering went
 * away prices the first offering instead.
 */
export function usePreviewExamples(initialDraft: unknown, draft: unknown) {
  const draftOfferings = isJsonObject(draft) ? draft.offerings : undefined;
  const draftFactors = isJsonObject(draft) ? draft.factors : undefined;
  const offerings = useMemo(() => previewOfferings({ offerings: draftOfferings, factors: draftFactors }), [draftOfferings, draftFactors]);
  const [examples, setExamples] = useState<Example[]>(() => {
    const first = firstExample(previewOfferings(initialDraft), 'example-1');
    return first ? [first] : [];
  });
  const [active, setActive] = useState(0);
  const shown = useMemo(
    () =>
      (examples.length > 0 ? examples : [firstExample(offerings, 'example-1')].filter((e): e is Example => e !== null)).map((e) =>
        offerings.some((o) => o.id === e.offeringId) ? e : { ...e, offeringId: offerings[0]?.id ?? e.offeringId },
      ),
    [examples, offerings],
  );
  return { offerings, examples: shown, setExamples, active, setActive };
}
