/** `1 credit`, `3 credits`: a count of credits in a sentence, the noun agreeing with it. */
export function creditsText(count: number, format: (value: number) => string = String): string {
  return `${format(count)} ${count === 1 || count === -1 ? 'credit' : 'credits'}`;
}
