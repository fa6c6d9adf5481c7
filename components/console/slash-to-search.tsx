'use client';

import { useEffect } from 'react';
import { SEARCH_INPUT_ID } from './search-input-id';

// "/" jumps to the header's search from anywhere on a console page, as on GitHub, Stripe and
// Hookdeck — but not while typing in a field, nor with a modifier held (Shift+/ is "?").

/** Whether a key pressed in `target` is typing (a text field, a select, editable content), not a command. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image'].includes(target.type);
  return false;
}

export function SlashToSearch() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTyping(e.target)) return;
      const input = document.getElementById(SEARCH_INPUT_ID);
      if (!(input instanceof HTMLInputElement)) return;
      e.preventDefault(); // the "/" is not typed into the box
      input.focus();
      input.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return null;
}
