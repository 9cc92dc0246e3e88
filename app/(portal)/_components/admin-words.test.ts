import { describe, expect, it } from 'vitest';
import { adminWords, ownerWords } from './admin-words';

const ada = { name: 'Ada Admin', email: 'ada@example.test' };
const bo = { name: null, email: 'bo@example.test' };
const cy = { name: 'Cy', email: 'cy@example.test' };
const di = { name: 'Di', email: 'di@example.test' };

describe('adminWords: whom a person asks for a permission they lack', () => {
  it('names the one admin by name and email', () => {
    expect(adminWords([ada])).toBe('Ask Ada Admin (ada@example.test), a workspace admin, if you need it.');
  });
  it('names an admin without a name by email', () => {
    expect(adminWords([bo])).toBe('Ask bo@example.test, a workspace admin, if you need it.');
  });
  it('lists two or three admins, and counts the rest', () => {
    expect(adminWords([ada, bo])).toBe('Ask a workspace admin if you need it: Ada Admin (ada@example.test) or bo@example.test.');
    expect(adminWords([ada, bo, cy, di])).toBe(
      'Ask a workspace admin if you need it: Ada Admin (ada@example.test), bo@example.test, Cy (cy@example.test) or another of the 4 workspace admins.',
    );
  });
  it('without any admin it still says whom to ask', () => {
    expect(adminWords([])).toBe('Ask whoever runs your workspace if you need it.');
  });
});

describe('ownerWords: whom a person asks for what the owner of their business sets', () => {
  it('names the owner, or lists the owners', () => {
    expect(ownerWords([ada])).toBe('Ask Ada Admin (ada@example.test), the owner of this business, if you need it.');
    expect(ownerWords([ada, bo])).toBe('Ask an owner of this business if you need it: Ada Admin (ada@example.test) or bo@example.test.');
    expect(ownerWords([ada, bo, cy, di])).toBe(
      'Ask an owner of this business if you need it: Ada Admin (ada@example.test), bo@example.test, Cy (cy@example.test) or another of its 4 owners.',
    );
  });
  it('without an owner says nothing, so that the caller names the workspace admins instead', () => {
    expect(ownerWords([])).toBeNull();
  });
});
