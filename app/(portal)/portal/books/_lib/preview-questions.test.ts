import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '@/lib/books/demo-book';
import { previewOfferings } from './preview-questions';

describe('previewOfferings', () => {
  it('asks each offering its factors, in the offering’s order, with their options', () => {
    const [windows] = previewOfferings(demoBookArtifact);
    expect(windows.id).toBe('window_cleaning');
    expect(windows.questions.map((q) => q.factorId)).toEqual(['home_size', 'storeys', 'frequency', 'access', 'site_type']);
    expect(windows.questions[1]).toMatchObject({ label: 'Storeys', options: expect.arrayContaining([{ id: '2', label: 'Two storeys' }]) });
  });

  it('keeps going through an unfinished draft', () => {
    const draft = { offerings: [{ id: 'a', factorIds: ['missing', 7] }, { label: 'no id' }], factors: 'oops' };
    expect(previewOfferings(draft)).toEqual([{ id: 'a', label: 'a', questions: [{ factorId: 'missing', label: 'missing', options: [] }] }]);
    expect(previewOfferings(null)).toEqual([]);
    expect(previewOfferings([])).toEqual([]);
  });
});
