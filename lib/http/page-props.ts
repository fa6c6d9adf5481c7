// What Next passes a page (App Router, Next 15+: both are promises). `P` names the route's params.
export type TSearchParams = Record<string, string | string[] | undefined>;
export type TPageProps<P extends Record<string, string> = Record<string, never>> = { params: Promise<P>; searchParams: Promise<TSearchParams> };
