/** Cents to the contract's money string in major units: 9000 → "90.00". */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The contract's money string to cents: "90.00" → 9000. The string is validated beforehand. */
export function parseMoney(amount: string): number {
  const [major = '0', minor = '00'] = amount.split('.');
  return Number(major) * 100 + Number(minor);
}
