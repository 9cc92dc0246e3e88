import { describe, expect, it } from 'vitest';
import { missingAnswers, missingSentence, type Offering } from './answers';

const factor = (id: string, label: string, required: boolean, unknownAllowed = false) => ({
  id,
  label,
  required,
  unknownAllowed,
  assumedOptionId: unknownAllowed ? 'a' : null,
  options: [{ id: 'a', label: 'A' }],
});
const windows: Offering = {
  id: 'window_cleaning',
  label: 'Window cleaning',
  description: null,
  factors: [factor('home_size', 'Home size', true), factor('storeys', 'Storeys', true), factor('access', 'Access', true, true), factor('frequency', 'How often', false)],
};

describe('missingAnswers', () => {
  it('asks for the service first, when none is chosen', () => {
    expect(missingAnswers(undefined, { offeringId: '', factors: {} })).toEqual(['offeringId']);
  });

  it('lists the required questions left unanswered, in the form’s order; optional ones never', () => {
    expect(missingAnswers(windows, { offeringId: 'window_cleaning', factors: {} })).toEqual(['factors.home_size', 'factors.storeys', 'factors.access']);
    expect(missingAnswers(windows, { offeringId: 'window_cleaning', factors: { home_size: 'a', storeys: 'a', access: 'a' } })).toEqual([]);
  });

  it('takes "not sure" as an answer only where the book prices it with an assumption', () => {
    const answers = { offeringId: 'window_cleaning', factors: { home_size: 'a', storeys: null, access: null } };
    expect(missingAnswers(windows, answers)).toEqual(['factors.storeys']);
  });
});

describe('missingSentence', () => {
  it('says what is missing in a sentence that names the questions', () => {
    expect(missingSentence(new Set(['offeringId']), undefined)).toBe('Choose the service you would like a price for.');
    expect(missingSentence(new Set(['factors.storeys']), windows)).toBe('Please answer “Storeys” so that we can work out your price.');
    expect(missingSentence(new Set(['factors.storeys', 'factors.home_size']), windows)).toBe(
      'Please answer 2 more questions so that we can work out your price: “Home size” and “Storeys”.',
    );
    expect(missingSentence(new Set(['factors.access', 'factors.storeys', 'factors.home_size']), windows)).toBe(
      'Please answer 3 more questions so that we can work out your price: “Home size”, “Storeys” and “Access”.',
    );
    expect(missingSentence(new Set(), windows)).toBeNull();
  });
});
