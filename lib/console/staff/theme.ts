import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema/console';

// Each staff member's console theme (console.users.theme, migration 0028): "system" follows the
// browser's prefers-color-scheme, "light" and "dark" override it. The root layout renders it as the
// class of <html> (app/theme.css), so the first paint is already in the chosen theme.

export const THEMES = ['system', 'light', 'dark'] as const;
export type TTheme = (typeof THEMES)[number];
export const ZTheme = z.enum(THEMES, { error: 'must be one of system, light, dark' });

/** A stored value this release does not know reads as "system". */
export function asTheme(value: unknown): TTheme {
  return THEMES.includes(value as TTheme) ? (value as TTheme) : 'system';
}

/** The class of <html>: none for "system" (the media query decides). */
export function themeClass(theme: TTheme): string | undefined {
  return theme === 'system' ? undefined : theme;
}

export async function setUserTheme(userId: string, theme: TTheme): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ theme }).where(eq(users.id, userId));
}
