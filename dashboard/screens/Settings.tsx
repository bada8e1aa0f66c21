import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleSettings = (m: Model): string => (void m, 'Settings');

export function Settings({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleSettings(m)} />;
}
