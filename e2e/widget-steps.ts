/** The guest's moves through the widget, by mouse, shared by the browser tests. */
import type { Locator, Page } from 'playwright-core';

export const widgetOn = (page: Page): Locator => page.locator('[data-outing]').first();

export async function heading(w: Locator, name: string): Promise<void> {
  await w.getByRole('heading', { name, exact: true }).waitFor();
}

export async function pickExperience(w: Locator, name: string): Promise<void> {
  await w.getByRole('button', { name: `Select: ${name}` }).click();
  await heading(w, 'Choose a date');
}

/** Clicks the first day with free places; returns its label (the full date). */
export async function pickFirstFreeDay(w: Locator): Promise<string> {
  const day = w.locator('button.day.free').first();
  await day.waitFor();
  const label = (await day.getAttribute('aria-label')) ?? '';
  await day.click();
  await heading(w, 'Choose a time');
  return label;
}

/** Clicks the first time with places left; returns its button text. */
export async function pickFirstTime(w: Locator): Promise<string> {
  const time = w.locator('button.time:not([disabled])').first();
  const text = (await time.innerText()).replace(/\s+/g, ' ');
  await time.click();
  await heading(w, 'Your details');
  return text;
}

export async function fillDetails(w: Locator, details: { participants?: number; name: string; email: string }): Promise<void> {
  if (details.participants) await w.getByLabel('Participants', { exact: true }).fill(String(details.participants));
  await w.getByLabel('Name', { exact: true }).fill(details.name);
  await w.getByLabel('E-mail', { exact: true }).fill(details.email);
}

/** Presses Book and waits for the confirmation; returns the booking number shown. */
export async function book(w: Locator): Promise<string> {
  await w.getByRole('button', { name: 'Book', exact: true }).click();
  await heading(w, 'Booking confirmed');
  return (await w.locator('.number strong').innerText()).trim();
}
