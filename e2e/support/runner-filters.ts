// Drives the runner list's filtered search as a keyboard user does: pick a token, then its value.
import type { Page } from '@playwright/test';

export const filterBox = (page: Page) => page.getByRole('combobox', { name: 'Search or filter runners' });

/** Adds a token (`Status`, `Type`, `Paused`, `Tag`, `Version`, ...) with a value typed and chosen with Enter. */
export async function filterRunners(page: Page, token: string, value: string) {
  const box = filterBox(page);
  await box.click();
  await box.fill(token);
  await box.press('Enter');
  const valueBox = page.getByRole('combobox', { name: `${token}: choose or type a value` });
  await valueBox.fill(value);
  await valueBox.press('Enter');
}

/** A free-text search of descriptions. */
export async function searchRunners(page: Page, text: string) {
  const box = filterBox(page);
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: `Search for “${text}”` }).click();
}

/** The `tag[]` values etc. of the current address. */
export const urlParams = (page: Page, name: string) => new URL(page.url()).searchParams.getAll(name);
