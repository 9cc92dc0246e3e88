'use client';

import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useFieldErrors } from './field-error';

/**
 * A form's save to the API: the mutation (whose answer may hold a secret, so it leaves the
 * mutation cache as soon as nothing watches), the API's field messages, and the submit handler.
 * A successful save refreshes `refresh` and hands the answer to `onSaved`.
 */
export function useSaveForm<T>({ save, refresh, onSaved }: { save: () => Promise<T>; refresh: QueryKey; onSaved: (answer: T) => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: save, gcTime: 0 });
  const fieldErrors = useFieldErrors(mutation.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    const saved = await mutation.mutateAsync().catch(() => null);
    if (!saved) return;
    mutation.reset();
    void queryClient.invalidateQueries({ queryKey: refresh });
    onSaved(saved);
  };
  return { mutation, fieldErrors, submit };
}
