/** An error as staff see it: what went wrong, the API's status and request id to quote, field errors (plain and serialisable; app/(console)/_lib/errors.ts makes it, <ErrorCallout> shows it). */
export type TErrorInfo = {
  message: string;
  status?: number;
  requestId?: string | null;
  errors?: { path: string; message: string }[];
};
