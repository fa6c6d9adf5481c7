// har-validator ships no types: the one call the tests make (validate a whole HAR document against har-schema).
declare module 'har-validator' {
  const validator: { har(data: unknown): Promise<unknown> };
  export default validator;
}
