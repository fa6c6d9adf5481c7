/** An error as staff see it: what went wrong, the API's status and request id to quote, field errors (plain and serialisable; app/(console)/_lib/errors.ts makes it, <ErrorCallout> shows it). */
export type TErrorInfo = {
  message: string;
  status?: number;
  requestId?: string | null;
  errors?: { path: string; message: string }[];
};

/**
 * What <ErrorCallout> shows of an error: a title that says what happened (the API's status; a
 * refusal of what was entered; only an unknown failure is "Something went wrong"), the message, and
 * the field errors that add something to it (one the message already says is not said twice).
 */
export function errorCalloutParts(error: TErrorInfo): { title: string; message: string; details: { path: string; message: string }[] } {
  const title = error.status ? `The API answered ${error.status}` : error.errors?.length ? 'Not accepted' : 'Something went wrong';
  const details = (error.errors ?? []).filter((e) => !error.message.includes(e.message));
  return { title, message: error.message, details };
}
