/** What a call tells its caller of the money: the price paid and the balance left. */
export interface Credits {
  credits_charged: number;
  credits_remaining: number;
}
